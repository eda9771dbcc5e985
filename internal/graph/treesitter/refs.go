package treesitter

import (
	"path"
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// confReference is the confidence of a reference matched by a bare name in its
// file: a local or a parameter of the same name would shadow it, and the walker
// does not track locals.
const confReference = 0.8

// refSite is a use of a name that is neither a definition nor a callee, kept
// until the whole file is read (imports may come after the uses).
type refSite struct {
	from, typeScope, name string
	member                bool // written obj.name: name holds both
	line, col             int
}

// ref records a name use (a node of a Spec.Refs type) in the innermost
// definition, unless it is a definition's own name, part of a callee (the call
// is recorded already) or the member half of obj.member.
func (w *walker) ref(n *sitter.Node, scope []frame) {
	if w.skip[n.Id()] || n.StartByte() < w.calleeEnd {
		return
	}
	name := text(n, w.src)
	if name == "" || len(name) > maxName || slices.Contains(w.spec.SelfNames, name) {
		return
	}
	w.refs = append(w.refs, w.refSite(n, scope, name, false))
}

// memberRef looks at obj.member outside a callee: the member is never a bare
// name use; obj.member itself is a use when obj is the enclosing class's self or
// a name the file imports (a module alias).
func (w *walker) memberRef(n *sitter.Node, m MemberRule, scope []frame) {
	mem := n.ChildByFieldName(m.Member)
	if mem != nil {
		w.skip[mem.Id()] = true
	}
	// With Spec.MemberChains, `x.a` of a callee `x.a.b` is a use of a.
	if n.StartByte() < w.calleeEnd && !(w.spec.MemberChains && n.EndByte() < w.calleeEnd) {
		return
	}
	obj := n.ChildByFieldName(m.Object)
	if obj == nil || mem == nil {
		return
	}
	o, member := w.selfAttr(obj), text(mem, w.src) // self.a.member, when its type is known
	if obj.NamedChildCount() == 0 {
		o = text(obj, w.src)
	} else if o == "" && w.spec.MemberChains {
		if c := w.calleeName(obj, 0); !strings.Contains(c, exprName) {
			o = c
		} else {
			o = w.assertedObject(n, obj, member)
		}
	}
	if o == "" || member == "" || len(o)+len(member) > maxName {
		return
	}
	// The object is judged with the member: a module alias names obj.member, else
	// obj alone is the use (resolveRefs).
	if obj.NamedChildCount() == 0 {
		w.skip[obj.Id()] = true
	}
	w.refs = append(w.refs, w.refSite(n, scope, o+"."+member, true))
}

func (w *walker) refSite(n *sitter.Node, scope []frame, name string, member bool) refSite {
	r := refSite{from: w.rel, name: name, member: member}
	for i := len(scope) - 1; i >= 0; i-- {
		if r.from == w.rel {
			r.from = scope[i].qname
		}
		if scope[i].owner != "" {
			r.typeScope = scope[i].owner
			break
		}
		if isType(scope[i].kind) {
			r.typeScope = scope[i].qname
			break
		}
	}
	pos := n.StartPosition()
	r.line, r.col = int(pos.Row)+1, int(pos.Column)+1
	return r
}

// resolveRefs turns the uses into references edges (a name the file defines
// once, self.member of the enclosing class) or into sites for the cross-file
// pass (a name or module alias the file imports). Other names (builtins, locals,
// parameters) are dropped: they name nothing in the graph. One use per
// definition and name is kept: an answer lists who refers, not how often.
func (w *walker) resolveRefs() {
	imported := w.importedNames()
	seen := map[[2]string]bool{}
	for _, r := range w.refs {
		key := [2]string{r.from, r.name}
		if seen[key] {
			continue
		}
		seen[key] = true
		obj, member, _ := strings.Cut(r.name, ".")
		if r.member && w.typedRef(r) {
			continue
		}
		switch {
		case r.member && slices.Contains(w.spec.SelfNames, obj):
			if d := w.defs[r.typeScope+"::"+member]; d != nil && r.typeScope != "" && d.qname != r.from {
				w.refEdge(r, d.qname, confSelfMethod)
			}
		case r.member && imported[obj] && len(w.byName[obj]) == 0:
			w.refUnresolved(r)
		default:
			if r.member && w.spec.MemberChains && !w.isLocal(r.from, obj) {
				w.refUnresolved(r) // the pass reads the member off obj's declared type
			}
			if r.member { // obj.member where obj is not a module: obj is the use
				r.name, r.member = obj, false
				if key = [2]string{r.from, obj}; seen[key] {
					continue
				}
				seen[key] = true
			}
			if w.isLocal(r.from, r.name) {
				continue // a local of the same name: the use is the local's
			}
			ds := w.visibleDefs(r.name, r.from)
			switch {
			case len(ds) == 1 && ds[0].qname != r.from:
				w.refEdge(r, ds[0].qname, confReference)
			case len(ds) == 0 && imported[r.name] && !slices.Contains(w.spec.SelfNames, r.name):
				w.refUnresolved(r)
			case len(ds) == 0 && w.spec.PackageScope != nil && w.spec.PackageScope(r.name):
				w.refUnresolved(r) // another file of the package may define it
			}
		}
	}
}

func (w *walker) refEdge(r refSite, to string, conf float64) {
	w.ff.Edges = append(w.ff.Edges, graph.Edge{From: r.from, To: to, Kind: graph.EdgeReferences,
		Confidence: conf, Resolution: graph.ResolvedName, File: w.rel, Line: r.line})
}

func (w *walker) refUnresolved(r refSite) {
	w.ff.Unresolved = append(w.ff.Unresolved, graph.Unresolved{From: r.from, Name: r.name, Kind: graph.EdgeReferences,
		File: w.rel, Line: r.line, Col: r.col, Reason: "imported name: left to the cross-file pass"})
}

// importedNames are the local names the file's imports bind: an alias, else the
// imported name, else the module's last part (`import os.path` binds os).
func (w *walker) importedNames() map[string]bool {
	out := map[string]bool{}
	for _, e := range w.ff.Edges {
		if e.Kind != graph.EdgeImports {
			continue
		}
		module, name, alias := SplitImportTarget(e.To)
		switch {
		case alias != "":
			out[alias] = true
		case name == "*":
		case name != "" && name != "default":
			out[name] = true
		case module != "":
			out[boundName(w.lang, module)] = true
		}
	}
	return out
}

// boundName is the local name `import module` binds: Python binds the first
// part of a dotted path (import os.path binds os), slash paths bind their last
// element (Go's "net/http" binds http), dotted paths elsewhere their last part.
func boundName(lang, module string) string {
	m := strings.Trim(module, `"'<>`)
	switch {
	case strings.ContainsAny(m, "/\\"):
		m = path.Base(strings.ReplaceAll(m, "\\", "/"))
		return strings.TrimSuffix(m, path.Ext(m))
	case lang == "python":
		first, _, _ := strings.Cut(strings.TrimLeft(m, "."), ".")
		return first
	}
	if i := strings.LastIndexAny(m, ".:"); i >= 0 {
		return m[i+1:]
	}
	return m
}

// local records the names a local definition (an assignment or a declaration
// inside a function) binds in the function fn, so uses of those names there are
// not taken for module-level definitions of the same name.
func (w *walker) local(n *sitter.Node, rule *DefRule, fn string) {
	if rule.NameField == "" {
		return
	}
	c := n.Walk()
	defer c.Close()
	for _, nm := range n.ChildrenByFieldName(rule.NameField, c) {
		if rule.NameTypes != nil && !slices.Contains(rule.NameTypes, nm.Kind()) {
			continue
		}
		if name := text(&nm, w.src); name != "" && len(name) <= maxName && !w.outer[fn][name] {
			if w.locals[fn] == nil {
				w.locals[fn] = map[string]bool{}
			}
			w.locals[fn][name] = true
		}
	}
}
