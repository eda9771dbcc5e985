package golang

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// FullLoadNeeded is Update's answer when an edit may change what other packages
// see, or when the snapshot cannot describe the tree any more: the caller runs
// Extract instead. Reason says which.
type FullLoadNeeded struct{ Reason string }

func (e *FullLoadNeeded) Error() string { return "full Go load needed: " + e.Reason }

// IsFullLoadNeeded reports whether err is a FullLoadNeeded, and its reason.
func IsFullLoadNeeded(err error) (string, bool) {
	var f *FullLoadNeeded
	if errors.As(err, &f) {
		return f.Reason, true
	}
	return "", false
}

func fullLoad(format string, args ...any) error {
	return &FullLoadNeeded{Reason: fmt.Sprintf(format, args...)}
}

// UpdateResult is what Update re-extracted.
type UpdateResult struct {
	// Files are the fresh facts of the changed files the type checker analyses,
	// without their implements edges: an update never changes a declaration, so the
	// caller keeps the ones it has.
	Files []graph.FileFacts
	// Syntactic are the changed files the type checker does not see (excluded by
	// build constraints, under testdata): the caller extracts them another way.
	Syntactic []string
}

// Update re-extracts the .go files in changed (relative to root; edited in place,
// none added or removed) without the go command. It re-parses and re-type-checks
// only the package variants that own them, reading every import from the export
// data the last full load used, and refuses (FullLoadNeeded) when an edit could
// reach beyond those files: go.mod changed, imports or build constraints changed,
// a package-level declaration changed (the variant's surface), the package does
// not type-check, uses cgo, or an export data file is gone. Edits inside function
// bodies, comments and formatting are what it takes: the usual edit.
func Update(ctx context.Context, root string, snap *Snapshot, changed []string, opts Options) (*UpdateResult, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if snap == nil || snap.Version != snapshotVersion {
		return nil, fullLoad("no snapshot of the last load")
	}
	if snap.Key != snapshotKey(opts) {
		return nil, fullLoad("the Go toolchain, environment or options changed")
	}
	if rel, ok := modFilesChanged(abs, snap); ok {
		return nil, fullLoad("%s changed", rel)
	}
	res := &UpdateResult{}
	byVariant := map[string][]string{}
	for _, rel := range changed {
		rec, ok := snap.Files[rel]
		switch {
		case !ok:
			res.Syntactic = append(res.Syntactic, rel) // testdata, _dirs: not in any build
		case rec.Variant == "":
			h, _ := headerOf(filepath.Join(abs, filepath.FromSlash(rel)))
			if h != rec.Header {
				return nil, fullLoad("the build constraints or imports of %s changed", rel)
			}
			res.Syntactic = append(res.Syntactic, rel)
		default:
			byVariant[rec.Variant] = append(byVariant[rec.Variant], rel)
		}
	}
	keys := make([]string, 0, len(byVariant))
	for k := range byVariant {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	ex := newExtraction(abs)
	for _, key := range keys {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := ex.recheck(key, snap, byVariant[key]); err != nil {
			return nil, err
		}
	}
	res.Files = ex.files()
	return res, nil
}

// recheck parses and type-checks one variant and extracts the files in changed.
func (ex *extraction) recheck(key string, snap *Snapshot, changed []string) error {
	v := snap.Variants[key]
	if v == nil {
		return fullLoad("no record of package %s", key)
	}
	if v.Incapable != "" {
		return fullLoad("%s: %s", v.PkgPath, v.Incapable)
	}
	fset := token.NewFileSet()
	isChanged := map[string]bool{}
	for _, rel := range changed {
		isChanged[rel] = true
	}
	files := make([]*ast.File, len(v.Files))
	contents := map[string]content{}
	for i, rel := range v.Files {
		name := filepath.Join(ex.root, filepath.FromSlash(rel))
		src, err := os.ReadFile(name)
		if err != nil {
			return fullLoad("%s: %v", rel, err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return fullLoad("%s does not parse", rel)
		}
		if isChanged[rel] && fileHeader(f, src) != snap.Files[rel].Header {
			return fullLoad("the build constraints or imports of %s changed", rel)
		}
		sum := sha256.Sum256(src)
		contents[rel] = content{hash: hex.EncodeToString(sum[:]), size: int64(len(src))}
		files[i] = f
	}
	pkg, info, err := typeCheck(fset, v, files)
	if err != nil {
		return err
	}
	if surface(pkg) != v.Surface {
		if why := onlyAdditions(v, pkg); why != "" {
			return fullLoad("package-level declarations of %s changed (%s)", v.PkgPath, why)
		}
	}
	p := &packages.Package{ID: key, PkgPath: v.PkgPath, Name: v.Name, Types: pkg, TypesInfo: info, Syntax: files, Fset: fset}
	units := make([]unit, len(files))
	for i, f := range files {
		rel := v.Files[i]
		units[i] = unit{pkg: p, file: f, rel: rel, test: isTestFile(rel)}
	}
	fields := collectFields(units)
	pkgFile, pkgDoc := packageHomes(units)
	for _, u := range units {
		if !isChanged[u.rel] {
			continue
		}
		c := contents[u.rel]
		ff := &graph.FileFacts{Path: u.rel, Language: Language, Hash: c.hash, Size: c.size}
		ex.facts[u.rel] = ff
		fx := &fileExtraction{ex: ex, fset: fset, u: u, ff: ff, pkgPath: v.PkgPath, info: info, fields: fields}
		if pkgFile[v.PkgPath] == u.rel {
			fx.packageNode(pkgDoc[v.PkgPath])
		}
		fx.definitions()
		fx.uses()
	}
	return nil
}

// onlyAdditions explains why pkg's declarations differ from the variant's
// recorded ones in a way that may reach other files, or returns "" when the only
// difference is new functions, variables or constants. Those reach nothing yet:
// no other file can use them without changing too (and a package that uses them
// type-checks against the old export data, fails, and takes the full load), and
// they add no method, so no implements edge moves. A new type could implement
// interfaces elsewhere; a changed or removed declaration reaches its users.
func onlyAdditions(v *Variant, pkg *types.Package) string {
	if v.Objects == nil {
		return "no record of its declarations"
	}
	now := objects(pkg)
	for name, h := range v.Objects {
		switch got, ok := now[name]; {
		case !ok:
			return name + " removed"
		case got != h:
			return name + " changed"
		}
	}
	for name := range now {
		if _, old := v.Objects[name]; old {
			continue
		}
		switch pkg.Scope().Lookup(name).(type) {
		case *types.Func, *types.Var, *types.Const:
		default:
			return "new type " + name
		}
	}
	return ""
}

// typeCheck checks one variant's files, its imports read from export data.
func typeCheck(fset *token.FileSet, v *Variant, files []*ast.File) (*types.Package, *types.Info, error) {
	view := map[string]*types.Package{} // by package path, shared so that types unify
	var importErr error
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		dep, ok := v.Imports[path]
		if !ok {
			importErr = fullLoad("%s imports %s, unknown to the last load", v.PkgPath, path)
			return nil, importErr
		}
		if p := view[dep.PkgPath]; p != nil && p.Complete() {
			return p, nil
		}
		p, err := readExport(fset, view, dep)
		if err != nil {
			importErr = fullLoad("export data of %s: %v", dep.PkgPath, err)
		}
		return p, err
	})
	var typeErr error
	cfg := &types.Config{
		Importer: imp,
		Sizes:    types.SizesFor("gc", goarch()),
		Error: func(err error) {
			if typeErr == nil {
				typeErr = err
			}
		},
	}
	if v.GoVersion != "" {
		cfg.GoVersion = "go" + v.GoVersion
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	pkg, _ := cfg.Check(v.PkgPath, fset, files, info)
	if importErr != nil {
		return nil, nil, importErr
	}
	if typeErr != nil {
		return nil, nil, fullLoad("%s does not type-check: %v", v.PkgPath, typeErr)
	}
	return pkg, info, nil
}

func readExport(fset *token.FileSet, view map[string]*types.Package, dep Import) (*types.Package, error) {
	f, err := os.Open(dep.Export)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The go command's export files are still archives (Go 1.26: "!<arch>"), which
	// only NewReader opens; go/packages reads them the same way.
	//lint:ignore SA1019 no replacement reads archive export data before Go 1.29
	r, err := gcexportdata.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, err
	}
	return gcexportdata.Read(r, fset, view, dep.PkgPath)
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func goarch() string {
	if a := os.Getenv("GOARCH"); a != "" {
		return a
	}
	return runtime.GOARCH
}

func isTestFile(rel string) bool { return strings.HasSuffix(rel, "_test.go") }

// headerOf reads the header fingerprint of a file from disk.
func headerOf(name string) (string, bool) {
	src, err := os.ReadFile(name)
	if err != nil {
		return "", false
	}
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return "", false
	}
	return fileHeader(f, src), true
}

// modFilesChanged reports the first go.mod, go.sum or go.work whose content is not
// the one the snapshot saw (or that appeared at the root).
func modFilesChanged(root string, snap *Snapshot) (string, bool) {
	for rel, want := range snap.ModFiles {
		if got, _ := hashFile(filepath.Join(root, filepath.FromSlash(rel))); got != want {
			return rel, true
		}
	}
	for _, name := range []string{"go.work", "go.sum"} {
		if _, seen := snap.ModFiles[name]; seen {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, name)); err == nil {
			return name, true
		}
	}
	return "", false
}

// ModFilesChanged reports whether one of the go.mod, go.sum or go.work files
// recorded in mods (Snapshot.ModFiles, kept apart by the caller so that checking
// them does not cost reading the whole snapshot) changed since, and which. Such
// a change reaches every package although no .go file changed.
func ModFilesChanged(root string, mods map[string]string) (string, bool) {
	if mods == nil {
		return "", false
	}
	return modFilesChanged(root, &Snapshot{ModFiles: mods})
}
