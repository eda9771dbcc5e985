package treesitter

import (
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// This file holds the definitions that take more than one node to read: a name
// wrapped in declarators (C's `*f(void)`), a declaration that a later definition
// replaces (a C prototype), a type reopened away from its definition (a Rust
// `impl`), a definition placed by a qualified name (C++ `void A::f()`), and the
// callees that name a path (`A::f`) or an implicit receiver (Java's `m()`).

// maxUnwrap bounds the declarators followed to a name; `int *(*(*f)[3])(void)` is
// five deep, and nobody writes twenty.
const maxUnwrap = 16

// unwrap follows n through the Spec's Unwrap node types to the name they wrap; nil
// when the chain ends without one.
func (w *walker) unwrap(n *sitter.Node) *sitter.Node {
	for i := 0; n != nil && i < maxUnwrap; i++ {
		field, ok := w.spec.Unwrap[n.Kind()]
		if !ok {
			return n
		}
		if field == "" {
			n = n.NamedChild(0)
		} else {
			n = n.ChildByFieldName(field)
		}
	}
	return nil
}

// unnamed gives a definition that has no name of its own the name its parent
// holds (DefRule.Unnamed): C's `typedef struct {…} T` is the struct T.
func unnamed(n *sitter.Node, rule *DefRule) []sitter.Node {
	if rule.Unnamed.Parent == "" {
		return nil // before Parent, which searches from the root
	}
	p := n.Parent()
	if p == nil || p.Kind() != rule.Unnamed.Parent {
		return nil
	}
	if nm := p.ChildByFieldName(rule.Unnamed.Field); nm != nil {
		return []sitter.Node{*nm}
	}
	return nil
}

// reopen reads a node that names a type defined elsewhere (DefRule.Reopens): it
// makes no node, and what it holds is read as if written in that type.
func (w *walker) reopen(n *sitter.Node, rule *DefRule, parent string, inFunc bool) (frame, bool) {
	nm := w.unwrap(n.ChildByFieldName(rule.NameField))
	if nm == nil {
		return frame{}, false
	}
	name := text(nm, w.src)
	if name == "" || len(name) > maxName || strings.ContainsAny(name, "\n ") {
		return frame{}, false // `impl dyn Trait`, `impl [T]`: no name to scope by
	}
	return frame{qname: parent + "::" + name, kind: rule.Kind, inFunc: inFunc}, true
}

// scopeIn places a definition in the scope Spec.Scope names, under its lexical
// parent: C++ `void A::f()` written in namespace n is n::A::f. The owner, whose
// methods `this.m()` reaches, is that scope unless the file defines it as a
// namespace.
func (w *walker) scopeIn(parent, s string) (qname, owner string) {
	q := parent + "::" + s
	if d := w.defs[q]; d != nil && (d.kind == graph.KindNamespace || d.kind == graph.KindPackage) {
		return q, ""
	}
	return q, q
}

// replace puts a definition in the place of the declaration that came first
// (DefRule.Forward): its position, kind, signature and body win; the
// declaration's visibility still holds (a C `static` prototype, a C++ member
// declared private), and its doc is kept when the definition has none.
func (w *walker) replace(d *def, n, nameNode *sitter.Node, rule *DefRule, kind graph.NodeKind) {
	old := w.ff.Nodes[d.node]
	nw := w.node(n, nameNode, rule, kind, d.qname, d.name)
	nw.Exported = nw.Exported && old.Exported
	if nw.Doc == "" {
		nw.Doc = old.Doc
	}
	w.ff.Nodes[d.node] = nw
	d.kind, d.line, d.forward = kind, nw.Line, false
}

// defFieldClause is the clause a definition holds in HeritageRule.DefField, if
// it has one of the rule's Clause type (any type when Clause is empty).
func defFieldClause(n *sitter.Node, h HeritageRule) []*sitter.Node {
	c := n.ChildByFieldName(h.DefField)
	if c == nil || (h.Clause != "" && c.Kind() != h.Clause) {
		return nil
	}
	return []*sitter.Node{c}
}

// splitCallee cuts a callee at its first separator: `a.b.c` is a and b.c, `A::f`
// is A and f; sep is "" for a bare name.
func splitCallee(name string) (recv, rest, sep string) {
	dot, path := strings.Index(name, "."), strings.Index(name, "::")
	switch {
	case dot < 0 && path < 0:
		return name, "", ""
	case path < 0 || (dot >= 0 && dot < path):
		return name[:dot], name[dot+1:], "."
	}
	return name[:path], name[path+2:], "::"
}

// pathTarget resolves a path callee `A::f` (Rust, C++: a path names a type or a
// namespace, where `a.f` may name a value) when the file defines exactly one
// type or namespace A and, inside it, a callable or a target kind f.
func (w *walker) pathTarget(recv, rest string, targets []graph.NodeKind) string {
	var scope *def
	for _, d := range w.byName[recv] {
		if isType(d.kind) || d.kind == graph.KindNamespace {
			if scope != nil {
				return ""
			}
			scope = d
		}
	}
	if scope == nil {
		return ""
	}
	t := w.defs[scope.qname+"::"+rest]
	if t == nil || (!isCallable(t.kind) && !slices.Contains(targets, t.kind)) {
		return ""
	}
	return t.qname
}

// implicitSelf resolves a bare callee inside a type to that type's own method,
// where the language reads `m()` as `this.m()` (Spec.ImplicitSelf).
func (w *walker) implicitSelf(s site) string {
	// A call that cannot reach a method (`new A()` inside A, whose constructor is
	// A::A) names no method of the type.
	if !w.spec.ImplicitSelf || s.typeScope == "" || !slices.Contains(s.targets, graph.KindMethod) {
		return ""
	}
	if d := w.defs[s.typeScope+"::"+s.name]; d != nil && isCallable(d.kind) {
		return d.qname
	}
	return ""
}
