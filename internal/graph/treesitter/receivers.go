package treesitter

import (
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Scopes and receiver types, for languages whose Spec reads Bindings: which
// names a function binds (and so shadow the file's definitions), and which
// type a receiver holds, so that `x.m()` is the site `T.m`.

// bind records what the scope q (a function, a type, or the file) binds.
func (w *walker) bind(q string, n *sitter.Node) {
	if w.spec.Bindings == nil {
		return
	}
	b := w.spec.Bindings(n, w.src)
	if len(b.Types) > 0 {
		w.types[q] = b.Types
	}
	for _, name := range b.Outer {
		if w.outer[q] == nil {
			w.outer[q] = map[string]bool{}
		}
		w.outer[q][name] = true
	}
	for _, name := range b.Locals {
		if w.outer[q][name] {
			continue
		}
		if w.locals[q] == nil {
			w.locals[q] = map[string]bool{}
		}
		w.locals[q][name] = true
	}
}

// enclosing lists the scopes a name used in from is looked up in, innermost
// first: from and the functions around it. With Spec.Bindings unset only from
// itself, as before scopes were read.
func (w *walker) enclosing(from string) []string {
	out := []string{from}
	if w.spec.Bindings == nil {
		return out
	}
	for q := from; ; {
		i := strings.LastIndex(q, "::")
		if i < 0 {
			return out
		}
		q = q[:i]
		d := w.defs[q]
		if d == nil {
			return out
		}
		if isCallable(d.kind) {
			out = append(out, q)
		}
	}
}

// isLocal reports whether name, used in from, is a local of from or of a
// function around it (a closure reads its function's locals).
func (w *walker) isLocal(from, name string) bool {
	for _, q := range w.enclosing(from) {
		if w.outer[q][name] {
			return false
		}
		if w.locals[q][name] {
			return w.defs[q+"::"+name] == nil // a nested def is the same binding
		}
	}
	return false
}

// visible reports whether d can be named bare from the definition from: with
// Spec.ClassScopeHidden, a class's members only from its own body, a nested
// function's names only inside that function.
func (w *walker) visible(d *def, from string) bool {
	if !w.spec.ClassScopeHidden || d.parent == w.rel {
		return true
	}
	p := w.defs[d.parent]
	switch {
	case p == nil:
		return true
	case isType(p.kind):
		return from == d.parent
	}
	return from == d.parent || strings.HasPrefix(from, d.parent+"::")
}

// visibleDefs are the file's definitions named name that from can name bare.
func (w *walker) visibleDefs(name, from string) []*def {
	ds := w.byName[name]
	if !w.spec.ClassScopeHidden {
		return ds
	}
	var out []*def
	for _, d := range ds {
		if w.visible(d, from) {
			out = append(out, d)
		}
	}
	return out
}

// receiverTyped writes a site `x.rest` as `T.rest` when x, used in from, holds
// a T (a local, a parameter or a module variable of known type), and
// `self.a.rest` as `T.rest` when the enclosing class's attribute a holds one.
// T must be a name the file defines or imports, for the cross-file pass to
// follow; any other name is returned as it is.
func (w *walker) receiverTyped(from, typeScope, name string) string {
	if len(w.types) == 0 {
		return name
	}
	head, rest, ok := strings.Cut(name, ".")
	if !ok || rest == "" {
		return name
	}
	t := ""
	if slices.Contains(w.spec.SelfNames, head) {
		attr, more, ok := strings.Cut(rest, ".")
		if !ok || typeScope == "" {
			return name
		}
		t, rest = w.types[typeScope][attr], more
	} else {
		t = w.localType(from, head)
	}
	if t = w.returned(t, from, typeScope); t == "" || !w.knownType(t) {
		return name
	}
	return t + "." + rest
}

// localType is the type the name holds where from uses it: the innermost scope
// that binds it decides, the module last.
func (w *walker) localType(from, name string) string {
	for _, q := range w.enclosing(from) {
		if t, ok := w.types[q][name]; ok {
			return t
		}
		if w.outer[q][name] {
			break
		}
		if w.locals[q][name] {
			return ""
		}
	}
	if d := w.defs[from]; d != nil && isType(d.kind) {
		return "" // a class body's own names are not the module's
	}
	return w.types[w.rel][name]
}

// knownType reports whether the type name t, as written, starts with a name
// the file defines at top level or imports.
func (w *walker) knownType(t string) bool {
	head, _, _ := strings.Cut(t, ".")
	if w.spec.PackageScope != nil && w.spec.PackageScope(head) {
		return true
	}
	for _, d := range w.byName[head] {
		if d.parent == w.rel {
			return true
		}
	}
	if w.imported == nil {
		w.imported = w.importedNames()
	}
	return w.imported[head]
}

// typedRef turns a member use `x.f` (`self.a.f`), x of known type T, into the
// site `T.f` for the cross-file pass, which finds f in T or its bases. It
// reports whether it did.
// A class of the file used as `T.f` is a site too (f may be inherited), and T
// remains a use (reported false).
func (w *walker) typedRef(r refSite) bool {
	typed := w.receiverTyped(r.from, r.typeScope, r.name)
	if typed == r.name {
		if obj, _, _ := strings.Cut(r.name, "."); w.spec.Bindings != nil && w.isFileClass(obj) && !w.isLocal(r.from, obj) {
			w.refUnresolved(r)
		}
		return false
	}
	r.name = typed
	w.refUnresolved(r)
	return true
}

// isFileClass reports whether name is a type the file defines at top level.
func (w *walker) isFileClass(name string) bool {
	for _, d := range w.byName[name] {
		if d.parent == w.rel && isType(d.kind) {
			return true
		}
	}
	return false
}

// selfAttr writes `self.a` (a member node whose object is a self name) out,
// when the spec reads bindings; else "".
func (w *walker) selfAttr(n *sitter.Node) string {
	m, ok := w.members[n.Kind()]
	if !ok || w.spec.Bindings == nil {
		return ""
	}
	obj, mem := n.ChildByFieldName(m.Object), n.ChildByFieldName(m.Member)
	if obj == nil || mem == nil || obj.NamedChildCount() > 0 || mem.NamedChildCount() > 0 {
		return ""
	}
	if o := text(obj, w.src); slices.Contains(w.spec.SelfNames, o) {
		return o + "." + text(mem, w.src)
	}
	return ""
}

// calleeHeadRef records the head of a dotted callee as a use (Spec.CalleeHeadRefs):
// `console` of `console.print()`, and the attribute `self.a` of `self.a.m()`.
func (w *walker) calleeHeadRef(callee *sitter.Node, scope []frame) {
	if !w.spec.CalleeHeadRefs {
		return
	}
	var inner []*sitter.Node // the member nodes, outermost first
	n := callee
	for depth := 0; depth < 32; depth++ {
		m, ok := w.members[n.Kind()]
		if !ok {
			break
		}
		obj := n.ChildByFieldName(m.Object)
		if obj == nil {
			return
		}
		inner = append(inner, n)
		n = obj
	}
	if len(inner) == 0 || !w.refKinds[n.Kind()] {
		return
	}
	name := text(n, w.src)
	if name == "" || len(name) > maxName {
		return
	}
	if !slices.Contains(w.spec.SelfNames, name) {
		w.heads = append(w.heads, w.refSite(n, scope, name, false))
		if len(inner) > 1 { // x.a of x.a.m(): a member of x's type
			first := inner[len(inner)-1]
			if mem := first.ChildByFieldName(w.members[first.Kind()].Member); mem != nil && mem.NamedChildCount() == 0 {
				w.heads = append(w.heads, w.refSite(first, scope, name+"."+text(mem, w.src), true))
			}
		}
	} else if len(inner) > 1 {
		if a := w.selfAttr(inner[len(inner)-1]); a != "" {
			w.refs = append(w.refs, w.refSite(inner[len(inner)-1], scope, a, true))
		}
	}
}

// headRefs are the callee heads that may name a definition: an imported head
// only when capitalised (a class: `Console.render()`); a lowercase one is a
// module (`os.path.join()`, `nodes.Const()`), which no definition stands for.
func (w *walker) headRefs() []refSite {
	var out []refSite
	for _, r := range w.heads {
		if w.imported == nil {
			w.imported = w.importedNames()
		}
		head, _, _ := strings.Cut(r.name, ".")
		if !w.imported[head] || (!r.member && hasUpperInitial(head)) {
			out = append(out, r)
		}
	}
	return out
}

// decoration: the lines first..last hold the decorators of the definition q,
// read in the scope from.
type decoration struct {
	from, q     string
	first, last int
}

// decorates notes the decorator lines of n when its parent wraps it with them
// (Spec.Decorated).
func (w *walker) decorates(n, parent *sitter.Node, scope []frame, f frame) {
	if w.spec.Decorated == "" || parent == nil || parent.Kind() != w.spec.Decorated {
		return
	}
	from := w.rel
	if len(scope) > 0 {
		from = scope[len(scope)-1].qname
	}
	first, last := int(parent.StartPosition().Row)+1, int(n.StartPosition().Row)
	if last >= first {
		w.decorated = append(w.decorated, decoration{from: from, q: f.qname, first: first, last: last})
	}
}

// redecorate gives the calls and uses read in decorators to the definitions
// they decorate.
func (w *walker) redecorate() {
	if len(w.decorated) == 0 {
		return
	}
	owner := func(from string, line int) string {
		for _, d := range w.decorated {
			if d.from == from && line >= d.first && line <= d.last {
				return d.q
			}
		}
		return from
	}
	for i := range w.sites {
		w.sites[i].from = owner(w.sites[i].from, w.sites[i].line)
	}
	for i := range w.refs {
		w.refs[i].from = owner(w.refs[i].from, w.refs[i].line)
	}
}

// returned reads a type written `callee()` (Bindings.Types) as the return type
// the file declares for that callee: a method of the enclosing class
// (`self.copy()`), a function the scope sees (`load()`), a method of a class of
// the file (`Style.parse()`). Other types are returned as they are.
func (w *walker) returned(t, from, typeScope string) string {
	callee, ok := strings.CutSuffix(t, "()")
	if !ok {
		return t
	}
	head, member, dotted := strings.Cut(callee, ".")
	q := ""
	switch {
	case dotted && slices.Contains(w.spec.SelfNames, head):
		if typeScope != "" {
			q = typeScope + "::" + member
		}
	case dotted:
		if w.isFileClass(head) && !w.isLocal(from, head) {
			q = w.rel + "::" + head + "::" + member
		}
	case !w.isLocal(from, callee):
		for _, d := range w.visibleDefs(callee, from) {
			if isCallable(d.kind) {
				q = d.qname
				break
			}
		}
	}
	if q == "" {
		return ""
	}
	return w.types[q][returnKey]
}
