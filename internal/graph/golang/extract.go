package golang

import (
	"context"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// extraction accumulates the facts of every module loaded by one Extract call.
type extraction struct {
	root  string
	facts map[string]*graph.FileFacts // by path relative to root
	nodes map[string]bool             // qualified names emitted, so none is emitted twice
	errs  errorSet
}

func newExtraction(root string) *extraction {
	return &extraction{root: root, facts: map[string]*graph.FileFacts{}, nodes: map[string]bool{}, errs: errorSet{}}
}

// unit is one file and the package variant chosen to analyse it.
type unit struct {
	pkg  *packages.Package
	file *ast.File
	rel  string // relative to the root, forward slashes
	name string // the absolute file name, as loaded
	test bool   // a _test.go file
}

// add extracts the facts of one loaded module and returns the files it claimed
// and the named types they declare. Each package variant's syntax and type
// information is let go as soon as the files it claims are extracted (a variant
// that claims none at once), so the facts grow while the loaded packages shrink
// and the peak stays near the load's own; the returned units keep no syntax.
func (ex *extraction) add(ctx context.Context, l *loaded) ([]unit, []*typeDecl, error) {
	parseErrs := ex.collectErrors(l)
	units := ex.claim(l)
	fields := collectFields(units)
	pkgFile, pkgDoc := packageHomes(units)
	pending := map[*packages.Package]int{}
	for _, u := range units {
		pending[u.pkg]++
	}
	for _, p := range l.pkgs {
		if pending[p] == 0 {
			release(p)
		}
	}
	var decls []*typeDecl
	for i, u := range units {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		c := l.contents[u.name]
		ff := &graph.FileFacts{
			Path:       u.rel,
			Language:   Language,
			Hash:       c.hash,
			Size:       c.size,
			ParseError: parseErrs[u.rel],
		}
		ex.facts[u.rel] = ff
		fx := &fileExtraction{ex: ex, fset: l.fset, u: u, ff: ff, pkgPath: u.pkg.PkgPath, info: u.pkg.TypesInfo, fields: fields}
		if pkgFile[u.pkg.PkgPath] == u.rel {
			fx.packageNode(pkgDoc[u.pkg.PkgPath])
		}
		decls = append(decls, fx.definitions()...)
		fx.uses()
		// implements still writes through fx (typeDecl.fx): it keeps the facts
		// and the file's name, not the syntax.
		fx.u.file, fx.info, fx.names = nil, nil, nil
		units[i].file = nil
		if pending[u.pkg]--; pending[u.pkg] == 0 {
			release(u.pkg)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	ex.implements(decls)
	collectReleased()
	return units, decls, nil
}

// collectReleased runs the garbage collector once the loaded syntax is let go.
// The collector's last cycle ran while the whole load was live, so its heap
// goal is twice that (golang.org/x/tools: 221 MiB live, a 443 MiB goal), and
// without a cycle here the facts, the snapshot and the store's writes pile
// garbage up to it (the heap reached 379 MiB). A cycle now marks only the
// types and facts (38 to 68 MiB there), so the goal falls with them: the
// in-process typed index's peak RSS went from 432 to 335 MiB, for one cycle
// of tens of milliseconds.
func collectReleased() { runtime.GC() }

// release lets go of a variant's syntax and type information (the bulk of a
// load: every identifier's object and every expression's type). Its types stay:
// importers, implements and the snapshot read them.
func release(p *packages.Package) {
	p.Syntax, p.TypesInfo = nil, nil
}

// claim chooses, for every file under the root, the package variant that analyses
// it. With tests, go/packages returns p, "p [p.test]" (p's files again plus its
// in-package tests), "p_test [p.test]" and the generated test main. The plain
// variant is preferred, so that non-test code is seen as every other package sees
// it; a test variant only claims the files the plain one lacks. Files outside the
// root (the generated test main lives in GOCACHE) are dropped.
func (ex *extraction) claim(l *loaded) []unit {
	pkgs := append([]*packages.Package(nil), l.pkgs...)
	sort.SliceStable(pkgs, func(i, j int) bool {
		ti, tj := isTestVariant(pkgs[i]), isTestVariant(pkgs[j])
		if ti != tj {
			return !ti
		}
		return pkgs[i].ID < pkgs[j].ID
	})
	var units []unit
	seen := map[string]bool{}
	for _, p := range pkgs {
		if p.Types == nil || p.TypesInfo == nil {
			continue
		}
		for _, f := range p.Syntax {
			name := l.fset.File(f.FileStart).Name()
			rel, ok := ex.rel(name)
			if !ok || !strings.HasSuffix(rel, ".go") {
				continue
			}
			if _, done := ex.facts[rel]; done || seen[rel] {
				continue
			}
			seen[rel] = true
			units = append(units, unit{pkg: p, file: f, rel: rel, name: name, test: strings.HasSuffix(rel, "_test.go")})
		}
	}
	sort.Slice(units, func(i, j int) bool { return units[i].rel < units[j].rel })
	return units
}

func isTestVariant(p *packages.Package) bool { return strings.Contains(p.ID, " [") }

// rel maps an absolute file name to the root-relative path, false when the file is
// outside the root.
func (ex *extraction) rel(name string) (string, bool) {
	r, err := filepath.Rel(ex.root, name)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// packageHomes picks, for every package path, the file that holds the package node
// (its first non-test file by name, else its first test file) and the file whose
// doc comment documents the package.
func packageHomes(units []unit) (home map[string]string, doc map[string]string) {
	home, doc = map[string]string{}, map[string]string{}
	homeTest := map[string]bool{}
	for _, u := range units { // sorted by path
		p := u.pkg.PkgPath
		if _, ok := home[p]; !ok || homeTest[p] && !u.test {
			home[p], homeTest[p] = u.rel, u.test
		}
		if _, ok := doc[p]; !ok && !u.test && u.file.Doc != nil {
			doc[p] = strings.TrimSpace(u.file.Doc.Text())
		}
	}
	return home, doc
}

// collectErrors records the diagnostics of every loaded variant and returns the
// syntax and type errors by file: the first of each file, for its ParseError.
func (ex *extraction) collectErrors(l *loaded) map[string]string {
	parse := map[string]string{}
	for _, p := range l.pkgs {
		for _, e := range p.Errors {
			file, line, col := splitPos(e.Pos)
			if file != "" {
				if r, ok := ex.rel(file); ok {
					file = r
				}
			}
			kind := [...]string{"unknown", "list", "parse", "type"}[e.Kind]
			ex.errs.add(Error{Package: p.PkgPath, File: file, Line: line, Col: col, Kind: kind, Msg: e.Msg})
			// A type or load error (an import that did not load) leaves the
			// file's facts partial too: what did not check has no edge, so
			// answers reaching the file are lower bounds.
			if file != "" && parse[file] == "" {
				parse[file] = errorPrefix[e.Kind] + strconv.Itoa(line) + ":" + strconv.Itoa(col) + ": " + e.Msg
			}
		}
	}
	return parse
}

// errorPrefix says what kind of error a file's ParseError reports; a syntax
// error has none, as from the other extractors.
var errorPrefix = map[packages.ErrorKind]string{
	packages.UnknownError: "load error: ",
	packages.ListError:    "load error: ",
	packages.TypeError:    "type error: ",
}

// splitPos splits a go/packages position "file:line:col" (or "file:line", "", "-").
func splitPos(pos string) (file string, line, col int) {
	file = pos
	for range 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 {
			break
		}
		n, err := strconv.Atoi(file[i+1:])
		if err != nil {
			break
		}
		line, col = n, line
		file = file[:i]
	}
	if file == "-" {
		file = ""
	}
	return file, line, col
}

// files returns the accumulated facts, sorted by path, each sorted and deduplicated.
func (ex *extraction) files() []graph.FileFacts {
	out := make([]graph.FileFacts, 0, len(ex.facts))
	for _, ff := range ex.facts {
		finish(ff)
		out = append(out, *ff)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func finish(ff *graph.FileFacts) {
	sort.Slice(ff.Nodes, func(i, j int) bool {
		a, b := ff.Nodes[i], ff.Nodes[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.QName < b.QName
	})
	sort.Slice(ff.Edges, func(i, j int) bool {
		a, b := ff.Edges[i], ff.Edges[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.From != b.From {
			return a.From < b.From
		}
		return a.To < b.To
	})
	edges := ff.Edges[:0]
	for i, e := range ff.Edges {
		if i > 0 && e == ff.Edges[i-1] {
			continue
		}
		edges = append(edges, e)
	}
	ff.Edges = edges
	sort.Slice(ff.Unresolved, func(i, j int) bool {
		a, b := ff.Unresolved[i], ff.Unresolved[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Name < b.Name
	})
	if ff.Nodes == nil {
		ff.Nodes = []graph.Node{}
	}
	if ff.Edges == nil {
		ff.Edges = []graph.Edge{}
	}
	if ff.Unresolved == nil {
		ff.Unresolved = []graph.Unresolved{}
	}
}

// fileExtraction produces the facts of one file.
type fileExtraction struct {
	ex      *extraction
	fset    *token.FileSet
	u       unit
	ff      *graph.FileFacts
	pkgPath string
	info    *types.Info
	fields  *fieldNames
	inits   int
	// names maps a declaration (FuncDecl, TypeSpec, struct or interface Field) to
	// the qualified name its uses are attributed to.
	names map[ast.Node]string
}

// pos returns the 1-based line and byte column of p, ignoring //line directives
// (codegraph-eval §1.6 item 8).
func (fx *fileExtraction) pos(p token.Pos) (line, col int) {
	if !p.IsValid() {
		return 0, 0
	}
	ps := fx.fset.PositionFor(p, false)
	return ps.Line, ps.Column
}

func (fx *fileExtraction) line(p token.Pos) int {
	l, _ := fx.pos(p)
	return l
}

func (fx *fileExtraction) edge(kind graph.EdgeKind, from, to string, at token.Pos) {
	if from == "" || to == "" {
		return
	}
	fx.ff.Edges = append(fx.ff.Edges, graph.Edge{
		From: from, To: to, Kind: kind,
		Confidence: 1, Resolution: graph.ResolvedTypes,
		File: fx.u.rel, Line: fx.line(at),
	})
}

// node appends n unless its qualified name was already emitted, and reports
// whether it did.
func (fx *fileExtraction) node(n graph.Node) bool {
	if n.QName == "" || fx.ex.nodes[n.QName] {
		return false
	}
	fx.ex.nodes[n.QName] = true
	n.File, n.Language = fx.u.rel, Language
	fx.ff.Nodes = append(fx.ff.Nodes, n)
	return true
}

// initName is the qualified name of the n-th (0-based) init function of the file.
func (fx *fileExtraction) initName() string {
	fx.inits++
	q := fx.pkgPath + ".init@" + path.Base(fx.u.rel)
	if fx.inits > 1 {
		q += "#" + strconv.Itoa(fx.inits)
	}
	return q
}
