package golang

import (
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// snapshotVersion changes whenever Snapshot's meaning does; an older snapshot is
// then ignored and the next run is a full load.
const snapshotVersion = 2

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
}

// Variant is one package variant ("p", "p [p.test]", "p_test [p.test]").
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
}

// Import is a dependency as the type checker reads it: from export data.
type Import struct {
	PkgPath string `json:"pkg_path"`
	Export  string `json:"export"`
}

// FileRecord says how the load saw one file.
type FileRecord struct {
	// Variant is the key of the variant that claimed the file; "" for a file the
	// go command ignored (build constraints).
	Variant string `json:"variant,omitempty"`
	// Header fingerprints what decides a file's place in the build: its build
	// constraints, package clause and imports.
	Header string `json:"header"`
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
	for _, s := range f.Imports {
		name := ""
		if s.Name != nil {
			name = s.Name.Name
		}
		parts = append(parts, name+" "+s.Path.Value)
	}
	return hashStrings(parts)
}

// recordSnapshot adds what one loaded module teaches to snap. units are the files
// the extraction claimed, by the variant that analyses each.
func (ex *extraction) recordSnapshot(snap *Snapshot, moduleDir string, l *loaded, units []unit) {
	prefix := ""
	if moduleDir != "." {
		prefix = moduleDir + "|"
	}
	claimed := map[*packages.Package]bool{}
	for _, u := range units {
		claimed[u.pkg] = true
		name := l.fset.File(u.file.FileStart).Name()
		src, err := os.ReadFile(name)
		header := ""
		if err == nil {
			header = fileHeader(u.file, src)
		}
		snap.Files[u.rel] = FileRecord{Variant: prefix + u.pkg.ID, Header: header}
	}
	for _, p := range l.pkgs {
		for _, name := range p.IgnoredFiles {
			ex.recordIgnored(snap, name)
		}
		if !claimed[p] {
			continue
		}
		snap.Variants[prefix+p.ID] = ex.variant(p)
	}
	for _, name := range []string{"go.mod", "go.sum", "go.work", "go.work.sum"} {
		rel := filepath.ToSlash(filepath.Join(moduleDir, name))
		if h, ok := hashFile(filepath.Join(ex.root, filepath.FromSlash(rel))); ok {
			snap.ModFiles[rel] = h
		}
	}
}

func (ex *extraction) variant(p *packages.Package) *Variant {
	v := &Variant{PkgPath: p.PkgPath, Name: p.Name, Imports: map[string]Import{}}
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
		v.Imports[path] = Import{PkgPath: imp.PkgPath, Export: imp.ExportFile}
	}
	if p.Types != nil {
		v.Surface = surface(p.Types)
		v.Objects = objects(p.Types)
	}
	return v
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
	if h, ok := headerOf(name); ok {
		snap.Files[rel] = FileRecord{Header: h}
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
