package golang

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// snapshotVersion changes whenever Snapshot's meaning does; an older snapshot is
// then ignored and the next run is a full load.
const snapshotVersion = 3

// Snapshot is what a full load learnt that lets Update re-check one package
// without the go command: which package variant analyses each file, where each
// variant's imports keep their compiler export data, and a fingerprint of every
// variant's declarations. It is saved with the index (JSON).
type Snapshot struct {
	Version int `json:"version"`
	// Key fingerprints the options and environment of the load; a different key
	// makes the snapshot useless.
	Key string `json:"key"`
	// ModFiles are the hashes of the go.mod, go.sum and go.work files of the loaded
	// modules, by path relative to the root.
	ModFiles map[string]string `json:"mod_files"`
	// Variants are the package variants that claimed at least one file, by ID
	// (prefixed with the module directory when nested).
	Variants map[string]*Variant `json:"variants"`
	// Files are the .go files the go command reported, by path relative to the root.
	Files map[string]FileRecord `json:"files"`
	// Errors counts the diagnostics of the load, reported again after an update.
	Errors int `json:"errors"`
	// FirstErrors are the first MaxListedErrors of them, listed again after an update.
	FirstErrors []Error `json:"first_errors,omitempty"`
	// StdExports are the export data files of the standard packages whose
	// interfaces implements checks by type (net/http), by import path.
	StdExports map[string]string `json:"std_exports,omitempty"`
}

// Variant is one package variant ("p", "p [p.test]", "p_test [p.test]", and
// "q [p.test]" when p's tests recompile q): every variant of the module's packages
// is recorded, those that claim no file too, since Update re-checks the
// variants that import an edited one.
type Variant struct {
	PkgPath   string `json:"pkg_path"`
	Name      string `json:"name"`
	GoVersion string `json:"go_version,omitempty"`
	// Files are the variant's compiled files, relative to the root, in order.
	Files []string `json:"files"`
	// Imports map an import path as written to the package it denotes.
	Imports map[string]Import `json:"imports"`
	// Surface fingerprints the package-level declarations (not the bodies): when
	// it is unchanged after an edit, no other package can see a difference.
	Surface string `json:"surface"`
	// Objects fingerprints each package-level declaration by name (a type with its
	// methods), so Update can tell an addition from a change.
	Objects map[string]string `json:"objects"`
	// Incapable, when set, says why this variant cannot be re-checked alone
	// (type errors, cgo, an import without export data).
	Incapable string `json:"incapable,omitempty"`
	// Export is the variant's own export data file.
	Export string `json:"export,omitempty"`
	// Types index the named types declared in the files the variant claims, for
	// choosing which implements pairs an update must check again.
	Types []TypeRecord `json:"types,omitempty"`
}

// Import is a dependency as the type checker reads it: from export data.
type Import struct {
	PkgPath string `json:"pkg_path"`
	Export  string `json:"export"`
	// Variant is the key of the imported variant when it belongs to the module.
	Variant string `json:"variant,omitempty"`
	// Std lists, for a package outside the module, the packages of the
	// non-synthetic stdInterfaces it sees (itself or through its imports).
	Std []string `json:"std,omitempty"`
}

// TypeRecord is a named, non-generic type as implements sees it.
type TypeRecord struct {
	Name  string `json:"name"`
	Iface bool   `json:"iface,omitempty"`
	// Methods are the names of the methods of *T, or of the interface, sorted.
	Methods []string `json:"methods,omitempty"`
	// Sig fingerprints an interface's method set (embedded methods included).
	Sig string `json:"sig,omitempty"`
}

// FileRecord says how the load saw one file.
type FileRecord struct {
	// Variant is the key of the variant that claimed the file; "" for a file the
	// go command ignored (build constraints).
	Variant string `json:"variant,omitempty"`
	// Header fingerprints what decides a file's place in the build: its build
	// constraints, package clause and imports.
	Header string `json:"header"`
	// Build fingerprints the same without the imports.
	Build string `json:"build,omitempty"`
	// Facts fingerprints the file's facts as last stored by a full load or a
	// surface update, so that an update re-extracting an unedited file returns it
	// only when its facts changed.
	Facts string `json:"facts,omitempty"`
}

// snapshotKey fingerprints what changes the go command's answers besides files.
func snapshotKey(opts Options) string {
	parts := []string{
		"tests=" + boolString(opts.Tests), "src=" + boolString(opts.FromSource),
		"flags=" + strings.Join(opts.BuildFlags, " "), "env=" + strings.Join(opts.Env, " "),
		"go=" + runtime.Version(),
	}
	for _, k := range []string{"GOOS", "GOARCH", "CGO_ENABLED", "GOFLAGS", "GOEXPERIMENT", "GOROOT", "GOWORK"} {
		parts = append(parts, k+"="+os.Getenv(k))
	}
	return hashStrings(parts)
}

func boolString(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func hashStrings(ss []string) string {
	h := sha256.New()
	for _, s := range ss {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// surface fingerprints a package's declarations as other code sees them: every
// package-level object with its type (a type with its underlying type and
// methods), unexported ones included since the package's own files use them.
// Function bodies, comments and positions are not part of it.
func surface(pkg *types.Package) string {
	objs := objects(pkg)
	lines := make([]string, 0, 2*len(objs))
	for _, name := range pkg.Scope().Names() { // sorted
		lines = append(lines, name, objs[name])
	}
	return hashStrings(lines)
}

// objects fingerprints each package-level object of pkg by name.
func objects(pkg *types.Package) map[string]string {
	q := func(p *types.Package) string { return p.Path() }
	scope := pkg.Scope()
	out := make(map[string]string, scope.Len())
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		lines := []string{types.ObjectString(obj, q)}
		if c, ok := obj.(*types.Const); ok {
			lines = append(lines, c.Val().ExactString()) // other packages fold it
		}
		if tn, ok := obj.(*types.TypeName); ok && !tn.IsAlias() {
			if n, ok := tn.Type().(*types.Named); ok {
				var methods []string
				for i := range n.NumMethods() {
					methods = append(methods, types.ObjectString(n.Method(i), q))
				}
				slices.Sort(methods) // source order spans files; the set is what counts
				lines = append(lines, methods...)
			}
		}
		out[name] = hashStrings(lines)
	}
	return out
}

// fileHeader fingerprints the part of a file that decides which package and
// build it belongs to and what it imports.
func fileHeader(f *ast.File, src []byte) string {
	parts := buildParts(f, src)
	for _, s := range f.Imports {
		name := ""
		if s.Name != nil {
			name = s.Name.Name
		}
		parts = append(parts, name+" "+s.Path.Value)
	}
	return hashStrings(parts)
}

// fileBuild fingerprints the package clause and build constraints of a file.
func fileBuild(f *ast.File, src []byte) string { return hashStrings(buildParts(f, src)) }

func buildParts(f *ast.File, src []byte) []string {
	parts := []string{f.Name.Name}
	// Build constraints live in comments before the package clause.
	end := int(f.Package - f.FileStart)
	if end > len(src) {
		end = len(src)
	}
	for _, line := range strings.Split(string(src[:max(end, 0)]), "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "//go:build") || strings.HasPrefix(t, "// +build") {
			parts = append(parts, t)
		}
	}
	return parts
}

// recordSnapshot adds what one loaded module teaches to snap. units are the files
// the extraction claimed, by the variant that analyses each; decls the named
// types they declare.
func (ex *extraction) recordSnapshot(snap *Snapshot, moduleDir string, l *loaded, units []unit, decls []*typeDecl) {
	prefix := ""
	if moduleDir != "." {
		prefix = moduleDir + "|"
	}
	for _, u := range units {
		c := l.contents[u.name]
		snap.Files[u.rel] = FileRecord{Variant: prefix + u.pkg.ID, Header: c.header, Build: c.build}
	}
	for _, p := range l.pkgs {
		for _, name := range p.IgnoredFiles {
			ex.recordIgnored(snap, name)
		}
	}
	scopes := closures{}
	byView := map[*packages.Package][]TypeRecord{}
	for _, d := range decls {
		byView[d.view] = append(byView[d.view], typeRecord(d.obj))
	}
	for _, p := range ex.moduleVariants(l.pkgs) {
		v := ex.variant(p, prefix, scopes)
		v.Types = byView[p]
		snap.Variants[prefix+p.ID] = v
	}
	ex.recordStdExports(snap, l.pkgs)
	for _, name := range []string{"go.mod", "go.sum", "go.work", "go.work.sum"} {
		rel := filepath.ToSlash(filepath.Join(moduleDir, name))
		if h, ok := hashFile(filepath.Join(ex.root, filepath.FromSlash(rel))); ok {
			snap.ModFiles[rel] = h
		}
	}
}

// moduleVariants are the variants loaded from files under the root: the roots
// and the variants they import that the go command recompiled for a test. The
// generated test mains (files in GOCACHE) are left out: nothing imports them.
func (ex *extraction) moduleVariants(roots []*packages.Package) []*packages.Package {
	var out []*packages.Package
	seen := map[*packages.Package]bool{}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if seen[p] || !ex.inModule(p) {
			return
		}
		seen[p] = true
		out = append(out, p)
		for _, imp := range p.Imports {
			visit(imp)
		}
	}
	for _, p := range roots {
		visit(p)
	}
	return out
}

func (ex *extraction) inModule(p *packages.Package) bool {
	if len(p.GoFiles) == 0 {
		return false
	}
	_, ok := ex.rel(p.GoFiles[0])
	return ok
}

// recordStdExports records where the export data of the standard packages of
// stdInterfaces is, wherever the load met them.
func (ex *extraction) recordStdExports(snap *Snapshot, roots []*packages.Package) {
	want := map[string]bool{}
	for _, s := range stdInterfaces {
		if s.path != "" && !s.synthetic {
			want[s.path] = true
		}
	}
	seen := map[*packages.Package]bool{}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		if want[p.PkgPath] && p.ExportFile != "" {
			if snap.StdExports == nil {
				snap.StdExports = map[string]string{}
			}
			snap.StdExports[p.PkgPath] = p.ExportFile
		}
		for _, imp := range p.Imports {
			visit(imp)
		}
	}
	for _, p := range roots {
		visit(p)
	}
}

func (ex *extraction) variant(p *packages.Package, prefix string, scopes closures) *Variant {
	v := &Variant{PkgPath: p.PkgPath, Name: p.Name, Imports: map[string]Import{}, Export: p.ExportFile}
	if p.Module != nil {
		v.GoVersion = p.Module.GoVersion
	}
	for _, name := range p.CompiledGoFiles {
		rel, ok := ex.rel(name)
		if !ok {
			v.Incapable = "compiles a generated file outside the root (cgo)"
		}
		v.Files = append(v.Files, rel)
	}
	switch {
	case len(p.Errors) > 0 || p.IllTyped:
		v.Incapable = "the package has errors"
	case !slices.Equal(p.GoFiles, p.CompiledGoFiles):
		v.Incapable = "the package uses cgo"
	}
	for path, imp := range p.Imports {
		if imp.ExportFile == "" && path != "unsafe" {
			v.Incapable = "no export data for " + path
		}
		i := Import{PkgPath: imp.PkgPath, Export: imp.ExportFile}
		if ex.inModule(imp) {
			i.Variant = prefix + imp.ID
		} else {
			i.Std = stdSeen(scopes, imp)
		}
		v.Imports[path] = i
	}
	if p.Types != nil {
		v.Surface = surface(p.Types)
		v.Objects = objects(p.Types)
	}
	return v
}

// stdSeen lists the packages of the non-synthetic stdInterfaces that p sees.
func stdSeen(scopes closures, p *packages.Package) []string {
	var out []string
	for _, s := range stdInterfaces {
		if s.path != "" && !s.synthetic && scopes.lookup(p, s.path, s.name) != nil {
			out = append(out, s.path)
		}
	}
	return out
}

// typeRecord indexes a named type for implements.
func typeRecord(tn *types.TypeName) TypeRecord {
	r := TypeRecord{Name: tn.Name()}
	if it, ok := tn.Type().Underlying().(*types.Interface); ok {
		r.Iface = true
		q := func(p *types.Package) string { return p.Path() }
		sigs := make([]string, 0, it.NumMethods())
		for i := range it.NumMethods() {
			m := it.Method(i)
			r.Methods = append(r.Methods, m.Name())
			sigs = append(sigs, types.ObjectString(m, q))
		}
		slices.Sort(r.Methods)
		slices.Sort(sigs)
		r.Sig = hashStrings(sigs)
		return r
	}
	ms := types.NewMethodSet(types.NewPointer(tn.Type()))
	for i := range ms.Len() {
		r.Methods = append(r.Methods, ms.At(i).Obj().Name())
	}
	slices.Sort(r.Methods)
	return r
}

// recordIgnored records the header of a file the build excludes, so that an edit
// which brings it into the build (its constraints change) is noticed.
func (ex *extraction) recordIgnored(snap *Snapshot, name string) {
	rel, ok := ex.rel(name)
	if !ok || !strings.HasSuffix(rel, ".go") {
		return
	}
	if _, done := snap.Files[rel]; done {
		return
	}
	if h, b, ok := headerOf(name); ok {
		snap.Files[rel] = FileRecord{Header: h, Build: b}
	}
}

// factsHash fingerprints everything the store keeps of a file's facts.
func factsHash(ff *graph.FileFacts) string {
	b, err := json.Marshal(ff)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// recordFacts fingerprints the facts of every file of files in snap.
func recordFacts(snap *Snapshot, files []graph.FileFacts) {
	for i := range files {
		if rec, ok := snap.Files[files[i].Path]; ok {
			rec.Facts = factsHash(&files[i])
			snap.Files[files[i].Path] = rec
		}
	}
}

func hashFile(name string) (string, bool) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), true
}
