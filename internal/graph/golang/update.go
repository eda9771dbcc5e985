package golang

import (
	"context"
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
	// Files are the fresh facts of the files the update re-extracted. Without
	// Implements, they are the changed files and lack their implements edges (no
	// declaration changed, the caller keeps the ones it has); with it, they may be
	// more files than changed, each with all its implements edges.
	Files []graph.FileFacts
	// Implements is set when Files carry their implements edges: a package's
	// surface changed and its importers were re-checked too.
	Implements bool
	// Syntactic are the changed files the type checker does not see (excluded by
	// build constraints, under testdata): the caller extracts them another way.
	Syntactic []string
	// Snapshot, when set, replaces the caller's snapshot once Files are stored: it
	// points at the export data the update wrote for the re-checked packages.
	Snapshot *Snapshot
	// Rechecked counts the package variants type-checked from source.
	Rechecked int
}

// Update re-extracts the .go files in changed (relative to root; edited in place,
// none added or removed) without the go command. It re-parses and re-type-checks
// the package variants that own them, reading every import from export data.
//
// When only bodies, comments or formatting changed, or the only new
// declarations are functions, variables and constants, those variants are all it
// checks, and it returns the changed files. When a variant's surface (a type, a
// signature, a method, a removed declaration) or imports changed, and
// opts.ExportDir is set, it re-checks every variant that imports it too
// (surfaceUpdate.run) and returns their files with their implements edges and a new
// Snapshot.
//
// It refuses (FullLoadNeeded) when the go command's answer could differ: go.mod
// changed, build constraints or a package clause changed, an import of a package
// the last load did not know, a package that does not type-check or uses cgo, an
// export data file gone, or an edit reaching more than maxSurfaceUpdateFiles files.
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
			h, _, _ := headerOf(filepath.Join(abs, filepath.FromSlash(rel)))
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
	su := newSurfaceUpdate(abs, snap)
	ex := newExtraction(abs)
	// A variant that fails against the old export data may type-check once
	// another edited one's surface change is seen: every variant is tried before
	// the first error is returned.
	var first error
	importersAffected := false
	for _, key := range keys {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		affects, err := ex.recheck(su, key, byVariant[key], opts.ExportDir != "")
		if affects {
			importersAffected = true
		} else if err != nil && first == nil {
			first = err
		}
	}
	switch {
	case importersAffected:
		if len(keys) > 1 {
			su.reset()
		}
		return su.run(ctx, changed, opts)
	case first != nil:
		return nil, first
	}
	res.Files = ex.files()
	return res, nil
}

// recheck type-checks one variant and extracts the files in changed. It
// reports importersAffected, and extracts nothing, when their imports or the
// variant's surface changed and the caller can re-check importers
// (canRecheckImporters); else it refuses any surface change but new functions,
// variables and constants (onlyAdditions).
func (ex *extraction) recheck(su *surfaceUpdate, key string, changed []string, canRecheckImporters bool) (importersAffected bool, err error) {
	v := su.snap.Variants[key]
	if v == nil {
		return false, fullLoad("no record of package %s", key)
	}
	if v.Incapable != "" {
		return false, fullLoad("%s: %s", v.PkgPath, v.Incapable)
	}
	isChanged := map[string]bool{}
	for _, rel := range changed {
		isChanged[rel] = true
		p, err := su.parse(rel)
		if err != nil {
			return false, err
		}
		if p.header != su.snap.Files[rel].Header {
			if !canRecheckImporters {
				return false, fullLoad("the imports of %s changed", rel)
			}
			return true, nil
		}
	}
	if err := su.check(key); err != nil {
		return false, err
	}
	c := su.fromSource[key]
	if surface(c.pkg) != v.Surface {
		why := onlyAdditions(v, c.pkg)
		switch {
		case canRecheckImporters:
			// Even new functions: the export data written keeps the next edit,
			// which may use them from another package, incremental.
			return true, nil
		case why != "":
			return false, fullLoad("package-level declarations of %s changed (%s)", v.PkgPath, why)
		}
	}
	p := &packages.Package{ID: key, PkgPath: v.PkgPath, Name: v.Name, Types: c.pkg, TypesInfo: c.info, Syntax: c.files, Fset: su.fset}
	units := make([]unit, len(c.files))
	for i, f := range c.files {
		rel := v.Files[i]
		units[i] = unit{pkg: p, file: f, rel: rel, test: isTestFile(rel)}
	}
	fields := collectFields(units)
	pkgFile, pkgDoc := packageHomes(units)
	for _, u := range units {
		if !isChanged[u.rel] {
			continue
		}
		pc := su.parsed[u.rel].c
		ff := &graph.FileFacts{Path: u.rel, Language: Language, Hash: pc.hash, Size: pc.size}
		ex.facts[u.rel] = ff
		fx := &fileExtraction{ex: ex, fset: su.fset, u: u, ff: ff, pkgPath: v.PkgPath, info: c.info, fields: fields}
		if pkgFile[v.PkgPath] == u.rel {
			fx.packageNode(pkgDoc[v.PkgPath])
		}
		fx.definitions()
		fx.uses()
	}
	return false, nil
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

// checkFiles type-checks a variant's files as the go command would, and returns
// the first type error.
func checkFiles(fset *token.FileSet, v *Variant, files []*ast.File, imp types.Importer) (*types.Package, *types.Info, error) {
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
	return pkg, info, typeErr
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

// headerOf reads the header and build fingerprints of a file from disk.
func headerOf(name string) (header, build string, ok bool) {
	src, err := os.ReadFile(name)
	if err != nil {
		return "", "", false
	}
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return "", "", false
	}
	return fileHeader(f, src), fileBuild(f, src), true
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

// RootModFiles hashes the go.mod, go.sum and go.work found at root, for
// ModFilesChanged after a load that failed: there is no snapshot then, and
// fixing one of them is what makes the module load.
func RootModFiles(root string) map[string]string {
	out := map[string]string{}
	for _, name := range []string{"go.mod", "go.sum", "go.work"} {
		if h, ok := hashFile(filepath.Join(root, name)); ok {
			out[name] = h
		}
	}
	return out
}
