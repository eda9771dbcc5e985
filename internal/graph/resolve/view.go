package resolve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// view reads the store for one pass, each file's facts once: the pass asks the
// same few files (a module many files import, a base class) over and over. It is
// not safe for concurrent use.
type view struct {
	ctx  context.Context
	st   *store.Store
	tree *Tree

	nodes  map[string]map[string]graph.Node // file → qname → node
	sites  map[string][]graph.Unresolved    // file → the extractor's sites
	bases  map[string][]graph.Edge          // file → the extractor's extends edges
	imps   map[string][]graph.Edge          // file → the extractor's imports edges
	scopes map[string]*scope                // file → its imports as bindings
	counts map[countKey]countResult
	heirs  map[string]*baseList // class qname → its resolved bases
	unions map[string]*baseList // type alias qname → its union's resolved members
	// namespaces are the files of each C# namespace (csharp.go).
	namespaces map[string][]string
	// wide indexes a whole module's definitions by their name within their
	// file (`Circle::extra`), per module (Language.ModuleOf).
	wide map[string]map[string][]graph.Node
	err  error // the first store error; the pass fails with it
	// goNames are the two forms of Go's names (gonames.go).
	goNames goNames

	preloaded bool
}

type countKey struct{ name, filter string }

type countResult struct {
	n     int
	first graph.Node
}

func newView(ctx context.Context, st *store.Store, tree *Tree) *view {
	v := &view{ctx: ctx, st: st, tree: tree,
		nodes: map[string]map[string]graph.Node{}, sites: map[string][]graph.Unresolved{},
		bases: map[string][]graph.Edge{}, imps: map[string][]graph.Edge{}, scopes: map[string]*scope{},
		counts: map[countKey]countResult{}, heirs: map[string]*baseList{}, namespaces: map[string][]string{},
		wide: map[string]map[string][]graph.Node{}}
	tree.NamespaceFiles = v.namespaceFiles
	return v
}

// preloadAbove is the number of files to resolve above which the view reads the
// whole graph in three queries instead of four small ones a file. Judgement: a
// query costs about as much as reading a hundred rows; a one-file change reads a
// handful of files.
const preloadAbove = 100

// preload reads every file's nodes, sites, imports and extends edges at once.
func (v *view) preload() {
	if v.preloaded {
		return
	}
	v.preloaded = true
	nodes, err := v.st.PassNodes(v.ctx)
	if err != nil {
		v.fail(err)
		return
	}
	sites, err := v.st.Sites(v.ctx, "")
	if err != nil {
		v.fail(err)
		return
	}
	edges, err := v.st.ExtractedEdges(v.ctx, "", graph.EdgeImports, graph.EdgeExtends)
	if err != nil {
		v.fail(err)
		return
	}
	for p := range v.tree.lang {
		v.nodes[p], v.sites[p], v.bases[p], v.imps[p] = map[string]graph.Node{}, nil, nil, nil
	}
	for _, n := range nodes {
		if m := v.nodes[n.File]; m != nil {
			n = v.goLocal(n)
			m[n.QName] = n
		}
	}
	for _, u := range sites {
		u.From = v.goLocalName(u.From)
		v.sites[u.File] = append(v.sites[u.File], u)
	}
	for _, e := range edges {
		e.From, e.To = v.goLocalName(e.From), v.goLocalName(e.To)
		if e.Kind == graph.EdgeImports {
			v.imps[e.File] = append(v.imps[e.File], e)
		} else {
			v.bases[e.File] = append(v.bases[e.File], e)
		}
	}
}

// fail keeps the first error; lookups after it find nothing.
func (v *view) fail(err error) {
	if v.err == nil {
		v.err = err
	}
}

// fileOf is the file a tree-sitter qualified name lives in (`a/b.py::C::m` →
// a/b.py); "" for a type-checked Go name.
func fileOf(qname string) string {
	f, _, ok := strings.Cut(qname, "::")
	if !ok {
		return ""
	}
	return f
}

// node finds a definition by qualified name.
func (v *view) node(qname string) (graph.Node, bool) {
	file := fileOf(qname)
	if file == "" {
		return graph.Node{}, false
	}
	n, ok := v.nodesOf(file)[qname]
	return n, ok
}

// nodesOf is file's definitions by qualified name.
func (v *view) nodesOf(file string) map[string]graph.Node {
	m, ok := v.nodes[file]
	if !ok {
		list, err := v.st.NodesInFile(v.ctx, file)
		if err != nil {
			v.fail(err)
		}
		m = make(map[string]graph.Node, len(list))
		for _, n := range list {
			n = v.goLocal(n)
			m[n.QName] = n
		}
		v.nodes[file] = m
	}
	return m
}

func (v *view) sitesOf(file string) []graph.Unresolved {
	s, ok := v.sites[file]
	if !ok {
		var err error
		if s, err = v.st.Sites(v.ctx, file); err != nil {
			v.fail(err)
		}
		s = v.goLocalSites(file, s)
		v.sites[file] = s
	}
	return s
}

// extendsOf lists the extends edges the extractor resolved within file.
func (v *view) extendsOf(file string) []graph.Edge {
	e, ok := v.bases[file]
	if !ok {
		var err error
		if e, err = v.st.ExtractedEdges(v.ctx, file, graph.EdgeExtends); err != nil {
			v.fail(err)
		}
		e = v.goLocalEdges(file, e)
		v.bases[file] = e
	}
	return e
}

// importsOf lists the imports edges the extractor wrote in file.
func (v *view) importsOf(file string) []graph.Edge {
	e, ok := v.imps[file]
	if !ok {
		var err error
		if e, err = v.st.ExtractedEdges(v.ctx, file, graph.EdgeImports); err != nil {
			v.fail(err)
		}
		v.imps[file] = e
	}
	return e
}

// shape digests what other files' resolution can read of file: its definitions
// (qualified name, kind, exported), its imports as written and its bases. Lines
// are left out, so an edit inside bodies, or one that only moves code, keeps the
// shape, and the file's dependents need not be resolved again.
func (v *view) shape(file string) string {
	var lines []string
	for q, n := range v.nodesOf(file) {
		// The signature too: Go reads a value's type off it (ValueMember).
		lines = append(lines, "n "+q+" "+string(n.Kind)+" "+strconv.FormatBool(n.Exported)+" "+n.Signature)
	}
	for _, e := range v.importsOf(file) {
		lines = append(lines, "i "+e.To)
	}
	for _, e := range v.extendsOf(file) {
		lines = append(lines, "e "+e.From+" "+e.To)
	}
	for _, s := range v.sitesOf(file) {
		if s.Kind == graph.EdgeExtends || s.Kind == graph.EdgeImplements {
			lines = append(lines, "b "+s.From+" "+string(s.Kind)+" "+s.Name)
		}
	}
	sort.Strings(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:16])
}

// count counts the exported definitions named name in a family, of a kind class.
func (v *view) count(name, fam string, c kindClass) countResult {
	k := countKey{name, filter(fam, c)}
	r, ok := v.counts[k]
	if !ok {
		n, first, err := v.st.CountDefinitions(v.ctx, name, family(fam), c.kinds)
		if err != nil {
			v.fail(err)
		}
		r = countResult{n, v.goLocal(first)}
		v.counts[k] = r
	}
	return r
}

// binding is what an import makes a local name stand for.
type binding struct {
	local  string
	module string // as written
	mod    Module
	// symbol is "" when the name is the module itself, else the name imported
	// from it ("default" for a default import).
	symbol string
	key    string // the module's dependency key
}

// imported is one import target of a file, resolved.
type imported struct {
	written string
	line    int
	module  string
	mod     Module
	key     string
	symbol  string // the name imported, "" or "*" for none
}

// scope is a file's imports: the local names they bind and the modules whose
// names a star import brings in.
type scope struct {
	file    string
	lang    *Language
	names   map[string]binding
	stars   []binding
	imports []imported
}

// scopeOf reads file's import edges (their targets as the extractor wrote them,
// documented in internal/graph/treesitter/imports.go) and resolves their modules.
func (v *view) scopeOf(file string) *scope {
	if sc, ok := v.scopes[file]; ok {
		return sc
	}
	sc := &scope{file: file, lang: languages[v.tree.Language(file)], names: map[string]binding{}}
	v.scopes[file] = sc
	if sc.lang == nil {
		return sc
	}
	for _, e := range v.importsOf(file) {
		module, name, alias := treesitter.SplitImportTarget(e.To)
		if module == "" {
			continue
		}
		im := imported{written: e.To, line: e.Line, module: module, mod: sc.lang.Module(v.tree, file, module),
			key: sc.lang.Key(module), symbol: name}
		sc.imports = append(sc.imports, im)
		b := binding{module: module, mod: im.mod, symbol: name, key: im.key}
		switch {
		case name == "*" || (name == "" && alias == "."): // Python star, Go dot import
			b.symbol = ""
			sc.stars = append(sc.stars, b)
		case name == "" && alias == "_":
		case name == "" && alias != "":
			b.local = alias
			sc.names[alias] = b
		case name == "" && sc.lang.Star:
			sc.stars = append(sc.stars, b)
		case name == "":
			if sc.lang.Bind == nil {
				continue
			}
			for _, bd := range sc.lang.Bind(module) {
				bb := b
				bb.local, bb.module = bd.Local, bd.Module
				if bd.Module != module {
					bb.mod, bb.key = sc.lang.Module(v.tree, file, bd.Module), sc.lang.Key(bd.Module)
				}
				if _, taken := sc.names[bd.Local]; !taken || bd.Module == module {
					sc.names[bd.Local] = bb
				}
			}
		default:
			b.local = name
			if alias != "" {
				b.local = alias
			}
			sc.names[b.local] = b
		}
	}
	if sc.lang.ImplicitNames != nil {
		for _, bd := range sc.lang.ImplicitNames(file) {
			if _, taken := sc.names[bd.Local]; !taken {
				sc.names[bd.Local] = binding{local: bd.Local, module: bd.Module,
					mod: sc.lang.Module(v.tree, file, bd.Module), key: sc.lang.Key(bd.Module)}
			}
		}
	}
	if sc.lang.Implicit != nil {
		for _, module := range sc.lang.Implicit(v, file) {
			sc.stars = append(sc.stars, binding{module: module, mod: sc.lang.Module(v.tree, file, module),
				key: sc.lang.Key(module)})
		}
	}
	return sc
}
