package main

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// loadMode: syntax and types for the module's packages; dependencies come from
// export data, which names them as precisely as source would.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
	packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule

// loadEnv fixes what changes the file universe (codegraph-eval §1.2: CGO_ENABLED=0,
// GOOS=linux) and keeps loading offline.
var loadEnv = []string{"CGO_ENABLED=0", "GOOS=linux", "GOPROXY=off", "GOTOOLCHAIN=local", "GOPACKAGESDRIVER=off"}

// posKey identifies a definition by the byte offset of its name, finer than the
// line of the format's key: two definitions may share a line.
type posKey struct {
	file string
	off  int
}

// unit is one source file and the package variant chosen to read it.
type unit struct {
	pkg  *packages.Package
	file *ast.File
	rel  string
}

// extractor accumulates one module's ground truth.
type extractor struct {
	root string
	fset *token.FileSet
	defs map[posKey]string // name position → definition key
	out  truth.File
}

// Extract loads the module at dir with its tests and returns its ground truth.
func Extract(ctx context.Context, dir string) (*truth.File, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("extract %s: %w", dir, err)
	}
	fset := token.NewFileSet()
	cfg := &packages.Config{Mode: loadMode, Context: ctx, Dir: root, Tests: true, Fset: fset,
		Env: append(os.Environ(), loadEnv...)}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", root, err)
	}
	x := &extractor{root: root, fset: fset, defs: map[posKey]string{}}
	x.out = truth.File{Language: "go", Tool: toolName(), Root: root}
	units := x.units(pkgs)
	for _, u := range units {
		x.out.Files = append(x.out.Files, u.rel)
		x.definitions(u)
	}
	for _, u := range units {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		x.uses(u)
	}
	x.implementations(pkgs)
	x.out.Manifest = manifest(pkgs, len(units))
	x.out.Sort()
	if err := x.out.Check(); err != nil {
		return nil, fmt.Errorf("extract %s: %w", root, err)
	}
	return &x.out, nil
}

// units picks, for each file under the root, one package variant to read it with.
// With tests a file comes back in up to two variants (p and "p [p.test]"): the
// same positions either way, so the plain variant is taken first, then by ID, for
// a deterministic choice. Files outside the root (the generated test main) are
// dropped.
func (x *extractor) units(pkgs []*packages.Package) []unit {
	pkgs = append([]*packages.Package(nil), pkgs...)
	sort.SliceStable(pkgs, func(i, j int) bool {
		ti, tj := strings.Contains(pkgs[i].ID, " ["), strings.Contains(pkgs[j].ID, " [")
		if ti != tj {
			return !ti
		}
		return pkgs[i].ID < pkgs[j].ID
	})
	seen := map[string]bool{}
	var out []unit
	for _, p := range pkgs {
		if p.Types == nil || p.TypesInfo == nil {
			continue
		}
		for _, f := range p.Syntax {
			rel, ok := x.rel(x.fset.File(f.FileStart).Name())
			if !ok || !strings.HasSuffix(rel, ".go") || seen[rel] {
				continue
			}
			seen[rel] = true
			out = append(out, unit{pkg: p, file: f, rel: rel})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out
}

// rel maps an absolute file name to its path under the root, false outside it.
func (x *extractor) rel(name string) (string, bool) {
	r, err := filepath.Rel(x.root, name)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// position is where p is in the source, ignoring //line directives.
func (x *extractor) position(p token.Pos) (rel string, line, off int, ok bool) {
	if !p.IsValid() {
		return "", 0, 0, false
	}
	ps := x.fset.PositionFor(p, false)
	rel, ok = x.rel(ps.Filename)
	return rel, ps.Line, ps.Offset, ok
}

// keyAt is the definition key whose name is at p, "" when none is.
func (x *extractor) keyAt(p token.Pos) string {
	rel, _, off, ok := x.position(p)
	if !ok {
		return ""
	}
	return x.defs[posKey{rel, off}]
}

// siteKey is "<file>:<line>" of p.
func (x *extractor) siteKey(p token.Pos) string {
	rel, line, _, _ := x.position(p)
	return truth.Key(rel, line)
}

func toolName() string {
	version := "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "golang.org/x/tools" {
				version = m.Version
			}
		}
	}
	return "go/types (golang.org/x/tools " + version + " go/packages), " + runtime.Version()
}

// manifest records what the run depended on, and the loading errors: ground truth
// from code that does not type-check is incomplete, and says so.
func manifest(pkgs []*packages.Package, files int) map[string]any {
	seen := map[string]bool{}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if !seen[e.Error()] {
				seen[e.Error()] = true
				errs = append(errs, e.Error())
			}
		}
	})
	sort.Strings(errs)
	m := map[string]any{
		"go": runtime.Version(), "env": strings.Join(loadEnv, " "), "tests": true,
		"universe":  "the packages of ./... in the root module (nested modules are unanalysed), tests included",
		"packages":  len(pkgs),
		"files":     files,
		"errors":    len(errs),
		"closures":  "folded into the enclosing declaration",
		"callees":   "abstract interface method for calls through interfaces; no dispatch expansion",
		"top_level": "calls in package-level initialisers are references only",
	}
	if len(errs) > 0 {
		m["first_errors"] = errs[:min(len(errs), 10)]
	}
	return m
}
