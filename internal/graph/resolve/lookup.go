package resolve

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// Confidences of the edges the pass draws. Judgement, on the scale of the
// extractor's (internal/graph/treesitter/walk.go: same-file unique 0.9).
const (
	// confImport: followed through the file's imports to a definition that exists,
	// in the only module the import can name.
	confImport = 1.0
	// confImportChoice: the same, but the module was found under several Python
	// roots and the first was taken.
	confImportChoice = 0.8
	// confInherited: `self.m()` found in a base class; a subclass override may be
	// what runs (the extractor's confSelfMethod).
	confInherited = 0.9
	// confName: the only exported definition of that name and kind in the
	// language family; nothing says the site means it.
	confName = 0.5
)

// maxHops bounds re-export chains and class hierarchies the lookups follow: a
// cycle or a generated chain stops there. Judgement: real chains are a few long.
const maxHops = 16

// exprName is how the extractor writes a callee that is not a name.
const exprName = "<expr>"

// deps collects what one file's resolution read.
type deps struct {
	self string
	set  map[store.Dep]struct{}
}

func newDeps(self string) *deps { return &deps{self: self, set: map[store.Dep]struct{}{}} }

func (d *deps) file(f string) {
	if f != "" && f != d.self {
		d.set[store.Dep{Kind: store.DepFile, Key: f}] = struct{}{}
	}
}

func (d *deps) files(fs []string) {
	for _, f := range fs {
		d.file(f)
	}
}

func (d *deps) module(key string) {
	if key != "" {
		d.set[store.Dep{Kind: store.DepModule, Key: key}] = struct{}{}
	}
}

func (d *deps) name(key, filter string, seen int) {
	d.set[store.Dep{Kind: store.DepName, Key: key, Filter: filter, Seen: seen}] = struct{}{}
}

func (d *deps) merge(o *deps) {
	for k := range o.set {
		if k.Kind != store.DepFile || k.Key != d.self {
			d.set[k] = struct{}{}
		}
	}
}

func (d *deps) list() []store.Dep {
	out := make([]store.Dep, 0, len(d.set))
	for k := range d.set {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		return a.Filter < b.Filter
	})
	return out
}

// status says how a lookup ended.
type status int

const (
	found    status = iota
	external        // the name comes from outside the repository
	missing         // the module or the name in it does not exist: nothing else to try
	unknown         // the receiver's type is not known: matching by name may still try
)

// lookup is what a name, followed through imports and members, stands for: a
// definition (node set) or a module.
type lookup struct {
	node   graph.Node
	mod    Module
	status status
	reason string
	// choice: a module on the way was one of several candidates.
	choice bool
	// alts are further definitions it stands for (a member of each type of a
	// union, see unions.go); union says a union was crossed on the way.
	alts  []graph.Node
	union bool
	// attr, when set, names the attribute whose type node is (see
	// attributeType): a receiver, not a definition the name stands for.
	attr string
	// iterates, when set, is a built-in container's iteration method called
	// on node, a field or variable holding the container (see iterating).
	iterates string
}

func (l lookup) isNode() bool { return l.status == found && l.node.QName != "" }

// bound follows a binding to what it names.
func (v *view) bound(b binding, lang *Language, d *deps, depth int) lookup {
	d.module(b.key)
	switch {
	case b.mod.External:
		return lookup{status: external, reason: "external module " + b.module}
	case !b.mod.Found():
		return lookup{status: missing, reason: "not found: module " + b.module}
	}
	d.files(b.mod.Files)
	var l lookup
	switch b.symbol {
	case "":
		l = lookup{mod: b.mod, status: found}
	case "default":
		// The extractor does not record which definition is the default export;
		// the local name usually repeats it (`import Button from "./Button"`).
		if l = v.inModule(b.mod, b.local, lang, d, depth); l.status != found {
			l.reason = "not found: the default export of " + b.module + " is not a definition named " + b.local
		}
	default:
		l = v.inModule(b.mod, b.symbol, lang, d, depth)
	}
	l.choice = l.choice || b.mod.Alternatives > 0
	return l
}

// inModule finds name in a module: a top-level definition of one of its files, a
// name one of them imports (a re-export), a submodule, or a name a star import of
// theirs brings.
func (v *view) inModule(mod Module, name string, lang *Language, d *deps, depth int) lookup {
	if depth > maxHops {
		return lookup{status: missing, reason: "import chain longer than the pass follows"}
	}
	var declared *graph.Node // a declaration of what another file defines (Rust's `mod x;`)
	for _, f := range mod.Files {
		d.file(f)
		if n, ok := v.node(f + "::" + name); ok {
			if lang == nil || lang.Reopening == nil || !lang.Reopening(v, n) {
				return lookup{node: n, status: found}
			}
			if declared == nil {
				declared = &n
			}
		}
		if mod.Scope != "" {
			if n, ok := v.node(f + "::" + mod.Scope + "::" + name); ok {
				return lookup{node: n, status: found}
			}
		}
	}
	for _, f := range mod.Files {
		if b, ok := v.scopeOf(f).names[name]; ok && !b.importsOwn(mod, name) {
			return v.bound(b, lang, d, depth+1)
		}
	}
	if lang != nil && lang.Submodule != nil {
		d.module(name)
		if sub := lang.Submodule(v.tree, mod, name); sub.Found() {
			d.files(sub.Files)
			return lookup{mod: sub, status: found}
		}
	}
	if declared != nil {
		return lookup{node: *declared, status: found}
	}
	if n, ok := v.throughStars(mod.Files, name, d); ok {
		return lookup{node: n, status: found}
	}
	where := mod.Dir // a Go package, a namespace package
	if len(mod.Files) == 1 {
		where = mod.Files[0]
	}
	return lookup{status: missing, reason: "not found: " + name + " in " + where}
}

// importsOwn reports whether b, bound in a file of mod, imports name from mod
// itself: a package's `from . import sub` in its __init__.py names its own
// submodule, which the Submodule step below finds (followed as a binding, it
// would lead back here until maxHops).
func (b binding) importsOwn(mod Module, name string) bool {
	return b.symbol == name && b.mod.Dir != "" && b.mod.Dir == mod.Dir && slices.Equal(b.mod.Files, mod.Files)
}

// maxStarFiles bounds the files a star-import search reads. Judgement: C headers
// include each other transitively; past a few hundred, the name is not there.
const maxStarFiles = 256

// throughStars looks for a top-level definition of name in what the files' star
// imports bring, transitively, breadth first, each file once (headers include
// each other in cycles).
func (v *view) throughStars(files []string, name string, d *deps) (graph.Node, bool) {
	queue := append([]string{}, files...)
	seen := map[string]bool{}
	var reopening *graph.Node // a Swift extension: taken only when nothing declares name
	for len(queue) > 0 && len(seen) < maxStarFiles {
		f := queue[0]
		queue = queue[1:]
		if seen[f] {
			continue
		}
		seen[f] = true
		for _, star := range v.scopeOf(f).stars {
			d.module(star.key)
			if len(star.mod.Files) > 0 {
				// A whole module (Swift's `import Geo`): read through its index, and
				// not transitively, as Swift's imports are not.
				if lang := languages[v.tree.Language(star.mod.Files[0])]; lang != nil && lang.ModuleOf != nil {
					if n, ok := v.inWideModule(lang, star.mod.Files[0], name, false); ok {
						d.file(n.File)
						return n, true
					}
					continue
				}
			}
			for _, sf := range star.mod.Files {
				d.file(sf)
				if n, ok := v.node(sf + "::" + name); ok {
					if lang := languages[v.tree.Language(sf)]; lang == nil || lang.Reopening == nil || !lang.Reopening(v, n) {
						return n, true
					}
					if reopening == nil {
						reopening = &n
					}
				}
				if star.mod.Scope != "" {
					if n, ok := v.node(sf + "::" + star.mod.Scope + "::" + name); ok {
						return n, true
					}
				}
				if lang := languages[v.tree.Language(f)]; lang == nil || !lang.StarsOwnOnly {
					queue = append(queue, sf)
				}
			}
		}
	}
	if reopening != nil {
		return *reopening, true
	}
	return graph.Node{}, false
}

// member finds name as a member of what l stands for: a module's name, a class's
// method (inherited ones too). Any other definition's members depend on its
// type, which the pass does not know.
func (v *view) member(l lookup, name string, lang *Language, d *deps) lookup {
	switch {
	case !l.isNode():
		next := v.inModule(l.mod, name, lang, d, 0)
		next.choice = next.choice || l.choice
		return next
	case isTypeKind(l.node.Kind) || l.node.Kind == graph.KindNamespace:
		if n, ok := v.classMember(l.node.QName, name, d); ok {
			return lookup{node: n, status: found, choice: l.choice}
		}
		if t, ok := v.attributeType(l.node.QName, name, d); ok {
			t.choice = t.choice || l.choice
			return t
		}
		return lookup{status: unknown, reason: "not found: " + name + " in " + l.node.QName + " or its bases"}
	case lang != nil && lang.ValueMember != nil:
		return lang.ValueMember(v, l, name, d)
	}
	return lookup{status: unknown, reason: "the type of " + l.node.Name + " is not known"}
}

// definesName reports whether file defines name as one of the kinds of c: a
// local definition shadows what the imports bind, so the extractor's verdict on
// the bare name stands.
func (v *view) definesName(file, name string, c kindClass) bool {
	for _, n := range v.nodesOf(file) {
		if n.Name == name && slices.Contains(c.kinds, n.Kind) {
			return true
		}
	}
	return false
}

// outcome is a site's resolution: an edge target, or the reason there is none.
type outcome struct {
	to string
	// also are further targets of the same site (a union's members).
	also   []string
	res    graph.Resolution
	conf   float64
	reason string
}

// resolveName resolves name, written in file inside src, to a definition of
// class c: (a) through the file's imports, star imports and package; (b) for
// `self.m` / `this.m` (and a bare `m` where the language reads it so), through
// the enclosing class and its bases; (c) by name, when exactly one exported
// definition of that name and kind exists in the family.
func (v *view) resolveName(file, src, name string, c kindClass, d *deps) outcome {
	lang := v.scopeOf(file).lang
	segs := splitName(name)
	if segs[0] != exprName {
		if lang.ImplicitSelf && len(segs) == 1 {
			if o, ok := v.inherited(src, segs[0], d); ok {
				return o
			}
		}
		if l, k := v.head(file, segs, lang, d); k > 0 {
			for _, seg := range segs[k:] {
				if l.status != found {
					break
				}
				l = eachMember(l, func(x lookup) lookup { return v.member(x, seg, lang, d) })
			}
			switch {
			case l.isNode() && l.attr != "":
				return attrOutcome(l)
			case l.isNode() && l.iterates != "":
				return outcome{reason: l.iterates + " of the built-in container " + l.node.Name + " holds"}
			case l.isNode() && l.union:
				return unionOutcome(l)
			case l.isNode():
				return importOutcome(v.fromHeader(l.node, lang, d).QName, l.choice, confImport)
			case l.status == found:
				return outcome{reason: name + " names a module, not a definition"}
			case l.status != unknown:
				return outcome{reason: l.reason}
			}
			// The receiver's type is unknown: try by name.
		}
		if len(segs) == 2 && slices.Contains(lang.SelfNames, segs[0]) {
			if o, ok := v.inherited(src, segs[1], d); ok {
				return o
			}
			if o, ok := v.objectMember(src, segs[1]); ok {
				return o
			}
		}
		if len(segs) > 2 && slices.Contains(lang.SelfNames, segs[0]) {
			if o, ok := v.inheritedPath(src, segs[1:], lang, d); ok {
				return o
			}
		}
	}
	last := segs[len(segs)-1]
	if len(segs) > 1 && c.name != types.name {
		// A member of a receiver whose type nothing above found.
		if o, ok := containerOutcome(lang.Family, last); ok {
			return o
		}
	}
	return v.byName(last, lang, c, d)
}

// maxDefinitions bounds the definitions fromHeader reads: with more, the name is
// ambiguous anyway.
const maxDefinitions = 8

// fromHeader follows a function found in a header (a prototype) to the one
// function of that name defined outside headers, when there is exactly one; and
// a method declared in a class's header (an Objective-C @interface) to the one
// method of the same class and selector defined outside headers.
func (v *view) fromHeader(n graph.Node, lang *Language, d *deps) graph.Node {
	if len(lang.Headers) == 0 || !slices.Contains(lang.Headers, path.Ext(n.File)) {
		return n
	}
	if n.Kind == graph.KindMethod {
		return v.methodFromHeader(n, lang, d)
	}
	if !slices.Contains(callables.kinds, n.Kind) {
		return n
	}
	r := v.count(n.Name, lang.Family, callables)
	d.name(n.Name, filter(lang.Family, callables), r.n)
	defs, err := v.st.Definitions(v.ctx, n.Name, family(lang.Family), callables.kinds, maxDefinitions)
	if err != nil {
		v.fail(err)
		return n
	}
	var out []graph.Node
	for _, x := range defs {
		if !slices.Contains(lang.Headers, path.Ext(x.File)) {
			out = append(out, x)
		}
	}
	if len(out) != 1 {
		return n
	}
	d.file(out[0].File)
	return out[0]
}

// splitName cuts a site's name at `.` and `::` (`a.b::c` → a, b, c).
func splitName(name string) []string {
	return strings.Split(strings.ReplaceAll(name, "::", "."), ".")
}

// head finds what the first k segments of a name stand for: the longest prefix
// an import binds (`pkg.util` of `pkg.util.load`), else the first segment among
// the names the star imports and the package bring. k is 0 when none does.
func (v *view) head(file string, segs []string, lang *Language, d *deps) (lookup, int) {
	sc := v.scopeOf(file)
	for k := len(segs); k >= 1; k-- {
		if b, ok := sc.names[strings.Join(segs[:k], ".")]; ok {
			return v.bound(b, lang, d, 0), k
		}
	}
	if l, ok := v.unqualified(file, segs[0], lang, d); ok {
		return l, 1
	}
	return lookup{}, 0
}

// unqualified finds a bare name among what the file's star imports bring and its
// package's other files define.
func (v *view) unqualified(file, name string, lang *Language, d *deps) (lookup, bool) {
	if n, ok := v.throughStars([]string{file}, name, d); ok {
		return lookup{node: n, status: found}, true
	}
	if lang.OwnNames {
		if n, ok := v.node(file + "::" + name); ok {
			return lookup{node: n, status: found}, true
		}
	}
	if lang.ModuleOf != nil {
		// A file that appears in the module may define it.
		d.module(dirKey(lang.ModuleOf(file)))
		if n, ok := v.inWideModule(lang, file, name, true); ok {
			d.file(n.File)
			return lookup{node: n, status: found}, true
		}
		return lookup{}, false
	}
	if lang.Package != nil {
		// A file that appears in the folder may define it.
		d.module(dirKey(parentDir(file)))
		var reopening *graph.Node
		for _, f := range lang.Package(v.tree, file) {
			d.file(f)
			n, ok := v.node(f + "::" + name)
			switch {
			case ok && lang.Reopening != nil && lang.Reopening(v, n):
				if reopening == nil {
					reopening = &n
				}
			case ok:
				return lookup{node: n, status: found}, true
			}
		}
		if reopening != nil {
			return lookup{node: *reopening, status: found}, true
		}
	}
	return lookup{}, false
}

// byName is the last resort: the only exported definition of that name, of a
// kind the site can name, in the language family.
func (v *view) byName(name string, lang *Language, c kindClass, d *deps) outcome {
	if name == exprName || name == "" {
		return outcome{reason: "callee is an expression, not a name"}
	}
	r := v.count(name, lang.Family, c)
	d.name(name, filter(lang.Family, c), r.n)
	switch r.n {
	case 0:
		return outcome{reason: "not found"}
	case 1:
		d.file(fileOf(r.first.QName))
		return outcome{to: r.first.QName, res: graph.ResolvedName, conf: confName}
	}
	return outcome{reason: "ambiguous: more than one definition"}
}

func importOutcome(to string, choice bool, conf float64) outcome {
	if choice {
		conf = min(conf, confImportChoice)
	}
	return outcome{to: to, res: graph.ResolvedImport, conf: conf}
}

// dirKey names a folder in a DepModule record; "." for the root.
func dirKey(dir string) string {
	if dir == "" {
		return "."
	}
	return path.Base(dir)
}
