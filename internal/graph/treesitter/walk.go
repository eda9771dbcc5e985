package treesitter

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// Confidences of the edges this pass draws. Judgement, ordered like the peer
// engine's tiers (notes/ai-architect.md §7: same-file unique 0.85, declared
// extends 0.95): a name unique in its file can still be shadowed by a local or an
// import, and `self.m()` can reach a subclass override.
const (
	confStructure  = 1.0 // contains: read off the syntax tree, nothing guessed
	confSameFile   = 0.9 // callee or base named bare, exactly one same-file definition of that name
	confSelfMethod = 0.9 // `self.m()` / `this.m()`, m defined in the enclosing class
	confImport     = 0.5 // the module as written, not yet resolved to a file
)

// maxDepth bounds the syntax nesting the walker follows: deeper trees (generated
// code, fuzzers) are not read further, and the facts say so. The peer engine's
// MAX_TREE_DEPTH, set after a fuzz-found stack overflow.
const maxDepth = 512

// checkEvery is how many nodes the walker visits between budget checks.
const checkEvery = 4096

type frame struct {
	qname  string
	kind   graph.NodeKind
	inFunc bool // this frame or an outer one is a function or method
	// owner is the type a definition placed by Spec.Scope belongs to, for `this.m()`.
	owner string
}

type def struct {
	qname, name, parent string
	kind                graph.NodeKind
	line                int
	node                int  // its index in FileFacts.Nodes
	forward             bool // a declaration a later definition replaces (DefRule.Forward)
}

type site struct {
	from, typeScope, name string
	kind                  graph.EdgeKind
	targets               []graph.NodeKind
	line, col             int
}

type walker struct {
	ctx      context.Context
	spec     *Spec
	rel      string
	lang     string
	src      []byte
	deadline time.Time
	ff       *graph.FileFacts

	defRules  map[string]*DefRule
	callRules map[string]*CallRule
	heritage  map[string][]HeritageRule
	members   map[string]MemberRule

	defs   map[string]*def
	order  []*def
	byName map[string][]*def
	sites  []site

	// Name uses (Spec.Refs): the nodes that are not uses (definition names, member
	// halves), the end of the last callee read (its names are the call), the uses.
	refKinds  map[string]bool
	locals    map[string]map[string]bool // function qname → names it binds locally
	skip      map[uintptr]bool
	calleeEnd uint
	refs      []refSite

	// Spec.Bindings, by scope qname (the file's path for the module): the names a
	// scope declares global or nonlocal, and the types its names hold.
	outer    map[string]map[string]bool
	types    map[string]map[string]string
	imported map[string]bool // the names the file's imports bind, once read
	heads    []refSite       // Spec.CalleeHeadRefs: callee heads, kept by headRefs
	// decorated are the decorator lines of definitions (Spec.Decorated).
	decorated []decoration

	visited int
	stop    error
	tooDeep bool
}

func newWalker(ctx context.Context, spec *Spec, rel, lang string, src []byte, deadline time.Time) *walker {
	w := &walker{ctx: ctx, spec: spec, rel: rel, lang: lang, src: src, deadline: deadline,
		defRules: map[string]*DefRule{}, callRules: map[string]*CallRule{},
		heritage: map[string][]HeritageRule{}, members: map[string]MemberRule{},
		defs: map[string]*def{}, byName: map[string][]*def{},
		refKinds: map[string]bool{}, skip: map[uintptr]bool{}, locals: map[string]map[string]bool{},
		outer: map[string]map[string]bool{}, types: map[string]map[string]string{}}
	for _, k := range spec.Refs {
		w.refKinds[k] = true
	}
	for i := range spec.Defs {
		w.defRules[spec.Defs[i].Node] = &spec.Defs[i]
	}
	for i := range spec.Calls {
		w.callRules[spec.Calls[i].Node] = &spec.Calls[i]
	}
	for _, h := range spec.Heritage {
		w.heritage[h.Def] = append(w.heritage[h.Def], h)
	}
	for _, m := range spec.Member {
		w.members[m.Node] = m
	}
	return w
}

func isType(k graph.NodeKind) bool {
	return k == graph.KindClass || k == graph.KindStruct || k == graph.KindInterface || k == graph.KindEnum
}

func isCallable(k graph.NodeKind) bool { return k == graph.KindFunction || k == graph.KindMethod }

// walk visits the root n with the enclosing definitions in scope (innermost last).
func (w *walker) walk(n *sitter.Node, scope []frame, depth int) {
	w.bind(w.rel, n)
	w.walkIn(n, nil, scope, depth)
}

// walkIn visits n, a child of parent: the parent is passed down because
// Node.Parent searches from the root.
func (w *walker) walkIn(n, parent *sitter.Node, scope []frame, depth int) {
	if w.stop != nil {
		return
	}
	if depth > maxDepth {
		w.tooDeep = true
		return
	}
	if w.visited++; w.visited%checkEvery == 0 {
		if err := w.ctx.Err(); err != nil {
			w.stop = err
			return
		}
		if time.Now().After(w.deadline) {
			w.stop = errBudget
			return
		}
	}
	kind := n.Kind()
	if rule := w.defRules[kind]; rule != nil {
		if f, ok := w.define(n, rule, scope); ok {
			w.decorates(n, parent, scope, f)
			w.heritageOf(n, f)
			if rule.Transparent {
				w.children(n, scope, depth)
			} else {
				w.children(n, append(scope, f), depth)
			}
			return
		}
	}
	// An import yields its targets and nothing else; a node that imports nothing
	// (a Ruby call that is not `require`) is read on.
	if imp := w.spec.Imports[kind]; imp != nil {
		if targets := imp(n, w.src); len(targets) > 0 {
			for _, to := range targets {
				w.ff.Edges = append(w.ff.Edges, graph.Edge{From: w.rel, To: to, Kind: graph.EdgeImports,
					Confidence: confImport, Resolution: graph.ResolvedImport, File: w.rel, Line: int(n.StartPosition().Row) + 1})
			}
			return
		}
	}
	if rule := w.callRules[kind]; rule != nil {
		w.call(n, parent, rule, scope)
	}
	if w.refKinds[kind] {
		w.ref(n, scope)
	} else if m, ok := w.members[kind]; ok && len(w.refKinds) > 0 {
		w.memberRef(n, m, scope)
	}
	w.children(n, scope, depth)
}

func (w *walker) children(n *sitter.Node, scope []frame, depth int) {
	inner := scope
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if rule := w.defRules[c.Kind()]; rule != nil && rule.OpensRest {
			// DefRule.OpensRest: a definition of this kind ends the one before it.
			inner = scope
			if rule.BodyField == "" || c.ChildByFieldName(rule.BodyField) == nil {
				if f, ok := w.define(c, rule, scope); ok {
					inner = append(scope[:len(scope):len(scope)], f)
				}
				continue
			}
		}
		w.walkIn(c, n, inner, depth+1)
	}
}

// define records the definitions n makes and returns the frame its body is read in.
// It reports false when n defines nothing here (an anonymous class, a destructuring
// pattern, a local variable).
func (w *walker) define(n *sitter.Node, rule *DefRule, scope []frame) (frame, bool) {
	parent, inFunc := w.rel, false
	var parentKind graph.NodeKind
	if len(scope) > 0 {
		top := scope[len(scope)-1]
		parent, parentKind, inFunc = top.qname, top.kind, top.inFunc
	}
	if rule.Reopens {
		return w.reopen(n, rule, parent, inFunc)
	}
	if rule.NeedsBody && n.ChildByFieldName(rule.BodyField) == nil {
		return frame{}, false // `struct S *p` names a struct, it does not define one
	}
	kind := rule.Kind
	if rule.KindField != "" {
		if v := n.ChildByFieldName(rule.KindField); v != nil {
			if k, ok := rule.KindBy[v.Kind()]; ok {
				kind = k
			}
		}
	}
	if rule.InType != "" && isType(parentKind) {
		kind = rule.InType
	}
	if rule.KindOf != nil {
		if k := rule.KindOf(n, w.src); k != "" {
			kind = k
		}
	}
	if inFunc && !isCallable(kind) && !isType(kind) {
		w.local(n, rule, parent) // locals are not graph nodes, but they shadow names
		return frame{}, false
	}
	owner := ""
	if w.spec.Scope != nil {
		if s := w.spec.Scope(n, w.src); s != "" {
			parent, owner = w.scopeIn(parent, s)
			if owner == "" && kind == graph.KindMethod {
				kind = graph.KindFunction // `void ns::f()`, ns a namespace of this file
			}
		}
	}
	var names []sitter.Node
	switch {
	case rule.Names != nil:
		for _, nm := range rule.Names(n, w.src) {
			names = append(names, *nm)
		}
	case rule.NameField != "":
		c := n.Walk()
		names = n.ChildrenByFieldName(rule.NameField, c)
		c.Close()
	default:
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if ch := n.NamedChild(i); slices.Contains(rule.NameTypes, ch.Kind()) {
				names = append(names, *ch)
				break
			}
		}
	}
	if len(names) == 0 {
		names = unnamed(n, rule)
	}
	var first *def
	for i := range names {
		nm := w.unwrap(&names[i])
		if nm == nil || !nm.IsNamed() || (rule.NameTypes != nil && !slices.Contains(rule.NameTypes, nm.Kind())) {
			continue
		}
		name := strings.TrimPrefix(text(nm, w.src), rule.NamePrefix)
		if rule.NameText != nil {
			name = rule.NameText(n, nm, w.src)
		}
		if name == "" || len(name) > maxName || strings.ContainsAny(name, "\n") {
			continue
		}
		d := w.add(n, nm, rule, kind, parent, name)
		if first == nil {
			first = d
		}
	}
	if first == nil {
		return frame{}, false
	}
	if isCallable(first.kind) || isType(first.kind) {
		w.bind(first.qname, n)
	}
	return frame{qname: first.qname, kind: first.kind, inFunc: inFunc || isCallable(first.kind), owner: owner}, true
}

// add makes one definition node, unless its QName is taken: the first one wins,
// except that a definition replaces a forward declaration (DefRule.Forward).
func (w *walker) add(n, nameNode *sitter.Node, rule *DefRule, kind graph.NodeKind, parent, name string) *def {
	q := parent + "::" + name
	if d := w.defs[q]; d != nil {
		if d.forward && !rule.Forward {
			w.replace(d, n, nameNode, rule, kind)
		}
		return d
	}
	w.skip[nameNode.Id()] = true
	nd := w.node(n, nameNode, rule, kind, q, name)
	d := &def{qname: q, name: name, parent: parent, kind: kind, line: nd.Line, node: len(w.ff.Nodes), forward: rule.Forward}
	w.defs[q] = d
	w.order = append(w.order, d)
	w.byName[name] = append(w.byName[name], d)
	w.ff.Nodes = append(w.ff.Nodes, nd)
	return d
}

// node is the graph node of definition n, named by nameNode.
func (w *walker) node(n, nameNode *sitter.Node, rule *DefRule, kind graph.NodeKind, q, name string) graph.Node {
	pos := nameNode.StartPosition()
	exported := false
	if w.spec.Exported != nil {
		exported = w.spec.Exported(name, n)
	}
	return graph.Node{
		QName: q, Kind: kind, Name: name, File: w.rel,
		Line: int(pos.Row) + 1, Col: int(pos.Column) + 1, EndLine: int(lastRow(n)) + 1,
		Signature: signature(n, rule, w.src), Doc: w.doc(n, rule),
		Language: w.lang, Exported: exported,
	}
}

// heritageOf records the bases a definition's clauses name.
func (w *walker) heritageOf(n *sitter.Node, f frame) {
	for _, h := range w.heritage[n.Kind()] {
		var clauses []*sitter.Node
		switch {
		case h.InBody != "":
			clauses = bodyClauses(n, h)
		case h.DefField != "":
			clauses = defFieldClause(n, h)
		default:
			clauses = w.clauses(n, h.Clause, 0)
		}
		for _, clause := range clauses {
			if h.SkipIfField != "" && clause.ChildByFieldName(h.SkipIfField) != nil {
				continue
			}
			var bases []*sitter.Node
			switch {
			case h.Bases != nil:
				bases = h.Bases(clause, w.src)
			case h.Field != "":
				c := clause.Walk()
				for _, b := range clause.ChildrenByFieldName(h.Field, c) {
					bases = append(bases, &b)
				}
				c.Close()
			default:
				for i := uint(0); i < clause.NamedChildCount(); i++ {
					bases = append(bases, clause.NamedChild(i))
				}
			}
			for i, b := range bases {
				name := w.typeName(b)
				if name == "" {
					continue
				}
				kind := h.Kind
				if h.Pick != nil {
					kind = h.Pick(i, name)
				}
				pos := b.StartPosition()
				// A namespace is a base when it is mixed in (a Ruby module).
				w.sites = append(w.sites, site{from: f.qname, name: name, kind: kind,
					targets: []graph.NodeKind{graph.KindClass, graph.KindStruct, graph.KindInterface, graph.KindType, graph.KindTypeAlias, graph.KindNamespace},
					line:    int(pos.Row) + 1, col: int(pos.Column) + 1})
			}
		}
	}
}

// bodyClauses finds the clauses that are statements of a definition's body
// (HeritageRule.InBody).
func bodyClauses(n *sitter.Node, h HeritageRule) []*sitter.Node {
	body := n.ChildByFieldName(h.InBody)
	if body == nil {
		return nil
	}
	var out []*sitter.Node
	for i := uint(0); i < body.NamedChildCount(); i++ {
		if c := body.NamedChild(i); c.Kind() == h.Clause {
			out = append(out, c)
		}
	}
	return out
}

// clauses finds the nodes of type kind under n, not entering bodies that hold
// definitions of their own (a nested class's clauses are its own).
func (w *walker) clauses(n *sitter.Node, kind string, depth int) []*sitter.Node {
	var out []*sitter.Node
	if depth > 8 { // clauses sit a few levels under their definition
		return nil
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch {
		case c.Kind() == kind:
			out = append(out, c)
		case w.defRules[c.Kind()] != nil && c.Kind() != "field_declaration":
		case n.FieldNameForNamedChild(uint32(i)) == "body":
		default:
			out = append(out, w.clauses(c, kind, depth+1)...)
		}
	}
	return out
}

// typeName is a base as written: `Base`, `pkg.Base`, `Base` of `Base<T>`; "" for
// anything that is not a name (a call, a keyword argument).
func (w *walker) typeName(n *sitter.Node) string {
	switch n.Kind() {
	case "identifier", "type_identifier", "attribute", "member_expression",
		"nested_type_identifier", "qualified_type", "dotted_name",
		"constant", "scope_resolution", "name", "qualified_name", "alias_qualified_name",
		"scoped_type_identifier", "qualified_identifier", "user_type":
		s := text(n, w.src)
		s, _, _ = strings.Cut(s, "<") // C# `A.IList<T>` is the base `A.IList`
		if len(s) > maxName || strings.ContainsAny(s, "\n ") {
			return ""
		}
		return s
	case "generic_type", "template_type":
		for _, f := range []string{"name", "type"} {
			if t := n.ChildByFieldName(f); t != nil {
				return w.typeName(t)
			}
		}
		if n.NamedChildCount() > 0 { // Java's generic_type has no fields
			return w.typeName(n.NamedChild(0))
		}
	case "pointer_type", "generic_name": // C# `IList<T>`: its identifier
		if n.NamedChildCount() > 0 {
			return w.typeName(n.NamedChild(0))
		}
	case "primary_constructor_base_type": // C# `record B(int X) : A(X)`
		if t := n.ChildByFieldName("type"); t != nil {
			return w.typeName(t)
		}
	}
	return ""
}

// call records a call site in the innermost definition (or the file).
func (w *walker) call(n, parent *sitter.Node, rule *CallRule, scope []frame) {
	if rule.When != nil && (parent == nil || !rule.When(n, parent, w.src)) {
		return
	}
	callee := n
	switch {
	case rule.Field != "":
		callee = n.ChildByFieldName(rule.Field)
	case rule.CalleeFirst:
		callee = n.NamedChild(0)
	}
	if callee == nil {
		return
	}
	if callee.Kind() == "import" { // `import("./x")`, a dynamic import, not a call
		return
	}
	s := site{from: w.rel, name: w.calleeName(callee, 0), kind: graph.EdgeCalls, targets: rule.Targets}
	if rule.Receiver != "" {
		if r := n.ChildByFieldName(rule.Receiver); r != nil {
			s.name = w.calleeName(r, 0) + "." + s.name
			callee = r // the site starts where the callee is written, at its receiver
		}
	}
	for i := len(scope) - 1; i >= 0; i-- {
		if s.from == w.rel {
			s.from = scope[i].qname
		}
		if scope[i].owner != "" {
			s.typeScope = scope[i].owner
			break
		}
		if isType(scope[i].kind) {
			s.typeScope = scope[i].qname
			break
		}
	}
	pos := callee.StartPosition()
	s.line, s.col = int(pos.Row)+1, int(pos.Column)+1
	w.sites = append(w.sites, s)
	w.calleeHeadRef(callee, scope)
	w.calleeEnd = max(w.calleeEnd, callee.EndByte())
	if f := n.ChildByFieldName(rule.Field); rule.Field != "" && f != nil {
		w.calleeEnd = max(w.calleeEnd, f.EndByte())
	}
}

// exprName stands for a callee, or part of one, that is not a name: `f()()`,
// `(a || b)()`, `items[0]()`.
const exprName = "<expr>"

// calleeName writes a callee as the source names it: `f`, `os.path.join`,
// `this.client.send`, `<expr>.then`.
func (w *walker) calleeName(n *sitter.Node, depth int) string {
	if s := w.specCallee(n, depth); s != "" {
		return s
	}
	if m, ok := w.members[n.Kind()]; ok && depth < 32 {
		obj, mem := n.ChildByFieldName(m.Object), n.ChildByFieldName(m.Member)
		if obj != nil && mem != nil {
			member := w.specCallee(mem, depth+1)
			if member == "" {
				member = text(mem, w.src)
			}
			return w.calleeName(obj, depth+1) + "." + member
		}
	}
	if n.NamedChildCount() == 0 && n.EndByte()-n.StartByte() <= maxName {
		if s := text(n, w.src); s != "" && !strings.ContainsAny(s, " \n\t()") {
			return s
		}
	}
	return exprName
}

// specCallee is the name Spec.Callee gives n, or "".
func (w *walker) specCallee(n *sitter.Node, depth int) string {
	if w.spec.Callee == nil || depth >= 32 {
		return ""
	}
	return w.spec.Callee(n, w.src, func(c *sitter.Node) string { return w.calleeName(c, depth+1) })
}

// resolve turns the sites into edges when the file names their target, and into
// unresolved sites otherwise; it draws the contains edges once every definition is
// known (a Go method may precede its receiver type).
func (w *walker) resolve() {
	for _, d := range w.order {
		from := d.parent
		if w.defs[from] == nil {
			from = w.rel
		}
		w.ff.Edges = append(w.ff.Edges, graph.Edge{From: from, To: d.qname, Kind: graph.EdgeContains,
			Confidence: confStructure, Resolution: graph.ResolvedName, File: w.rel, Line: d.line})
	}
	w.refs = append(w.refs, w.headRefs()...)
	w.redecorate()
	w.resolveRefs()
	for _, s := range w.sites {
		if s.kind == UnionMember { // a fact for the cross-file pass, never an edge
			w.ff.Unresolved = append(w.ff.Unresolved, graph.Unresolved{From: s.from, Name: s.name, Kind: s.kind,
				File: w.rel, Line: s.line, Col: s.col, Reason: "a member of a union type"})
			continue
		}
		s.name = w.receiverTyped(s.from, s.typeScope, s.name)
		to, conf, reason := w.target(s)
		if to == "" {
			w.ff.Unresolved = append(w.ff.Unresolved, graph.Unresolved{From: s.from, Name: s.name, Kind: s.kind,
				File: w.rel, Line: s.line, Col: s.col, Reason: reason})
			continue
		}
		w.ff.Edges = append(w.ff.Edges, graph.Edge{From: s.from, To: to, Kind: s.kind,
			Confidence: conf, Resolution: graph.ResolvedName, File: w.rel, Line: s.line})
	}
	w.ff.Unresolved = append(w.ff.Unresolved, w.attributeTypes()...)
}

func (w *walker) target(s site) (to string, conf float64, reason string) {
	recv, member, sep := splitCallee(s.name)
	switch {
	case recv == exprName:
		return "", 0, "callee is an expression, not a name"
	case sep == "":
		if to := w.implicitSelf(s); to != "" {
			return to, confSelfMethod, ""
		}
		if w.spec.Bindings != nil && w.isLocal(s.from, s.name) {
			return "", 0, "a local or a parameter"
		}
		var found []*def
		for _, d := range w.byName[s.name] {
			if slices.Contains(s.targets, d.kind) && w.visible(d, s.from) {
				found = append(found, d)
			}
		}
		found = w.innermost(found, s.from)
		switch len(found) {
		case 0:
			return "", 0, "not defined in this file"
		case 1:
			return found[0].qname, confSameFile, ""
		}
		return "", 0, fmt.Sprintf("ambiguous: %d definitions named %s in this file", len(found), s.name)
	case slices.Contains(w.spec.SelfNames, recv) && !strings.Contains(member, ".") && !strings.Contains(member, "::") && s.typeScope != "":
		if d := w.defs[s.typeScope+"::"+member]; d != nil && isCallable(d.kind) {
			return d.qname, confSelfMethod, ""
		}
		return "", 0, "not a method of the enclosing class in this file (inherited?)"
	case sep == "::":
		if to := w.pathTarget(recv, member, s.targets); to != "" {
			return to, confSameFile, ""
		}
	}
	return "", 0, "qualified name: left to the cross-file pass (imports, receiver types)"
}
