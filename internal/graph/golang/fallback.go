package golang

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// FileExtractor is the indexer's extractor of one file (index.FileExtractor).
type FileExtractor = func(ctx context.Context, rel, lang string, src []byte) (graph.FileFacts, error)

// FallbackNames wraps the extractor that reads Go the type checker could not
// load (tree-sitter), so that its facts carry the names Extract gives:
// `<import path>.<Name>`, `<import path>.<Type>.<Method>`, `<import
// path>.init@<file>` (see Extract), instead of the file-scoped
// `<path>::<Type>::<Method>` of the other languages. Names an agent saved then
// keep matching whichever path extracted the code. The import path is the
// nearest go.mod's module path (under root) and the folder; a file with no
// go.mod above it, or whose package clause does not parse, keeps the
// extractor's names. A nil extract stays nil.
func FallbackNames(root string, extract FileExtractor) FileExtractor {
	if extract == nil {
		return nil
	}
	mods := &modulePaths{root: root, byDir: map[string]string{}}
	return func(ctx context.Context, rel, lang string, src []byte) (graph.FileFacts, error) {
		ff, err := extract(ctx, rel, lang, src)
		if err != nil || lang != Language {
			return ff, err
		}
		if pkg := mods.packagePath(rel, src); pkg != "" {
			qualify(&ff, rel, pkg, src)
		}
		return ff, nil
	}
}

// modulePaths finds and memoises the module path of each folder.
type modulePaths struct {
	root  string
	mu    sync.Mutex
	byDir map[string]string // slashed folder → module path + folder, "" for none
}

// packagePath is the import path of the Go file rel: its package's, with
// "_test" for an external test package; "" when no go.mod is found above it or
// its package clause does not parse.
func (m *modulePaths) packagePath(rel string, src []byte) string {
	f, err := parser.ParseFile(token.NewFileSet(), rel, src, parser.PackageClauseOnly)
	if err != nil || f.Name == nil {
		return ""
	}
	return m.importPath(rel, f.Name.Name)
}

// importPath is packagePath for a file whose package clause names pkgName.
func (m *modulePaths) importPath(rel, pkgName string) string {
	p := m.dirPath(path.Dir(rel))
	if p != "" && strings.HasSuffix(rel, "_test.go") && strings.HasSuffix(pkgName, "_test") {
		p += "_test"
	}
	return p
}

// ImportPaths returns the import path Extract gives the package of a Go file
// under root (rel, slash-separated) whose package clause names pkgName: the
// nearest go.mod's module path and the folder, "_test" added for an external
// test package; "" when no go.mod is found above it. Safe for concurrent use.
func ImportPaths(root string) func(rel, pkgName string) string {
	m := &modulePaths{root: root, byDir: map[string]string{}}
	return m.importPath
}

func (m *modulePaths) dirPath(dir string) string {
	m.mu.Lock()
	p, ok := m.byDir[dir]
	m.mu.Unlock()
	if ok {
		return p
	}
	if b, err := os.ReadFile(filepath.Join(m.root, filepath.FromSlash(dir), "go.mod")); err == nil {
		if mod := modfile.ModulePath(b); mod != "" {
			p = mod
		}
	} else if dir != "." {
		if parent := m.dirPath(path.Dir(dir)); parent != "" {
			p = parent + "/" + path.Base(dir)
		}
	}
	m.mu.Lock()
	m.byDir[dir] = p
	m.mu.Unlock()
	return p
}

// qualify renames the file-scoped names of one file's facts to pkg's. A
// definition nested in a function or a value (a local type) has no name of its
// own in the type-checked graph: it is dropped and what it did is its
// enclosing definition's.
func qualify(ff *graph.FileFacts, rel, pkg string, src []byte) {
	q := &qualifier{rel: rel, pkg: pkg, kinds: map[string]graph.NodeKind{}}
	for _, n := range ff.Nodes {
		q.kinds[n.QName] = n.Kind
	}
	if q.kinds[rel+"::init"] == graph.KindFunction {
		q.inits = initSpans(rel, src) // parsing costs: only a file with init functions
	}
	var nodes []graph.Node
	for _, n := range ff.Nodes {
		if n.Kind == graph.KindFile {
			nodes = append(nodes, n)
			continue
		}
		if n.Name == "init" && n.Kind == graph.KindFunction && n.QName == rel+"::init" {
			nodes = append(nodes, q.initNodes(n)...)
			continue
		}
		if name, kept := q.name(n.QName, n.Line); kept {
			n.QName = name
			nodes = append(nodes, n)
		}
	}
	ff.Nodes = nodes
	edges := ff.Edges[:0]
	for _, e := range ff.Edges {
		if e.Kind == graph.EdgeContains && e.To == rel+"::init" {
			continue // each init's is added below
		}
		if e.Kind == graph.EdgeContains && e.From == rel {
			e.From = pkg // the package holds the definitions, as in Extract
		} else if e.From == rel && e.Kind != graph.EdgeImports {
			e.From = pkg // a package-level use
		} else {
			e.From = q.owner(e.From, e.Line)
		}
		to, kept := q.name(e.To, e.Line)
		if !kept {
			continue
		}
		e.To = to
		edges = append(edges, e)
	}
	for _, n := range nodes {
		if n.Name == "init" && strings.HasPrefix(n.QName, pkg+".init@") {
			edges = append(edges, graph.Edge{From: pkg, To: n.QName, Kind: graph.EdgeContains,
				Confidence: 1, Resolution: graph.ResolvedName, File: rel, Line: n.Line})
		}
	}
	ff.Edges = edges
	for i, u := range ff.Unresolved {
		if u.From == rel {
			ff.Unresolved[i].From = pkg
		} else {
			ff.Unresolved[i].From = q.owner(u.From, u.Line)
		}
	}
}

// qualifier renames one file's names.
type qualifier struct {
	rel, pkg string
	kinds    map[string]graph.NodeKind // the file's definitions, by file-scoped name
	inits    []span
}

// span is an init function's lines.
type span struct{ from, to int }

// name is the type-checked name of a file-scoped name of this file, false when
// it names a definition the type checker has no node for: one nested in a
// function or a value, or a blank one. Other names pass unchanged.
func (q *qualifier) name(name string, line int) (string, bool) {
	rest, ok := strings.CutPrefix(name, q.rel+"::")
	if !ok {
		return name, true
	}
	segs := strings.Split(rest, "::")
	if segs[0] == "init" {
		return q.initName(line), len(segs) == 1
	}
	if len(segs) > 2 || len(segs) == 2 && !q.typeScope(segs[0]) || slices.Contains(segs, "_") {
		return "", false // nested in a function or a value, or blank: no node in the type-checked graph
	}
	return q.pkg + "." + strings.Join(segs, "."), true
}

// typeScope reports whether a member named under top belongs to a type: top
// is a type of this file, or defined in none of its definitions (a method's
// receiver type declared in another file of the package).
func (q *qualifier) typeScope(top string) bool {
	switch k, ok := q.kinds[q.rel+"::"+top]; {
	case !ok:
		return true
	default:
		return k == graph.KindStruct || k == graph.KindInterface || k == graph.KindType || k == graph.KindTypeAlias
	}
}

// owner is the type-checked name of the definition a use belongs to: a use
// inside a nested definition belongs to the function around it.
func (q *qualifier) owner(from string, line int) string {
	if n, ok := q.name(from, line); ok {
		return n
	}
	rest := strings.TrimPrefix(from, q.rel+"::")
	top, _, _ := strings.Cut(rest, "::")
	switch top {
	case "init":
		return q.initName(line)
	case "_":
		return q.pkg // `var _ = f()`: nobody's but the package's
	}
	return q.pkg + "." + top
}

// initName names the init function around line as Extract does: init@<file>,
// then #2, #3 in file order.
func (q *qualifier) initName(line int) string {
	base := q.pkg + ".init@" + path.Base(q.rel)
	for i, s := range q.inits {
		if line >= s.from && line <= s.to {
			if i > 0 {
				return base + "#" + strconv.Itoa(i+1)
			}
			return base
		}
	}
	return base
}

// initNodes are the nodes of the file's init functions. The extractor keeps
// one node of a repeated name; the others are made from it.
func (q *qualifier) initNodes(n graph.Node) []graph.Node {
	if len(q.inits) == 0 {
		n.QName = q.initName(n.Line)
		return []graph.Node{n}
	}
	out := make([]graph.Node, 0, len(q.inits))
	for _, s := range q.inits {
		m := n
		m.Line, m.EndLine, m.QName = s.from, s.to, q.initName(s.from)
		if m.Line != n.Line {
			m.Col, m.Doc = 0, ""
		}
		out = append(out, m)
	}
	return out
}

// initSpans lists the lines of the file's init functions, in order; none when
// the file does not parse (every init is then the first).
func initSpans(rel string, src []byte) []span {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []span
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
			out = append(out, span{fset.Position(fd.Name.Pos()).Line, fset.Position(fd.End()).Line})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].from < out[j].from })
	return out
}
