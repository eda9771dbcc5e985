package resolve

import (
	"path"
	"sort"
	"strings"
)

// Tree is the set of indexed files the module resolvers probe, with what the pass
// read of the repository's configuration. It is built once per pass.
type Tree struct {
	lang  map[string]string   // path → language, as the index names it
	typed map[string]bool     // Go files whose facts the type checker wrote
	dirs  map[string][]string // directory ("" for the root) → the files directly in it
	sub   map[string]bool     // every directory that holds a file at any depth
	top   []string            // the top-level directories, sorted

	suffixes map[string][]string // dirsEndingWith's memo
	includes []string            // includeDirs' memo
	swift    map[string][]string // swiftModules' memo

	// GoModule is the module path in go.mod at the root, "" without one.
	GoModule string
	// TS holds baseUrl and paths of tsconfig.json at the root, nil without one.
	TS *TSConfig
	// NamespaceFiles, when set, lists the files that declare a C# namespace
	// (read from the store: namespaces are not folders).
	NamespaceFiles func(ns string) []string
}

// File is one indexed file given to NewTree.
type File struct {
	Path, Language string
	Typed          bool
}

// NewTree indexes files by directory.
func NewTree(files []File) *Tree {
	t := &Tree{lang: map[string]string{}, typed: map[string]bool{}, dirs: map[string][]string{}, sub: map[string]bool{}}
	tops := map[string]bool{}
	for _, f := range files {
		t.lang[f.Path] = f.Language
		if f.Typed {
			t.typed[f.Path] = true
		}
		dir := parentDir(f.Path)
		t.dirs[dir] = append(t.dirs[dir], f.Path)
		for d := dir; d != ""; d = parentDir(d) {
			t.sub[d] = true
			if parentDir(d) == "" {
				tops[d] = true
			}
		}
	}
	for d := range tops {
		t.top = append(t.top, d)
	}
	sort.Strings(t.top)
	for _, fs := range t.dirs {
		sort.Strings(fs)
	}
	return t
}

// Has reports whether p is an indexed file.
func (t *Tree) Has(p string) bool { _, ok := t.lang[p]; return ok }

// Language is the language of the indexed file p, "" when p is not one.
func (t *Tree) Language(p string) string { return t.lang[p] }

// Typed reports whether the Go type checker wrote p's facts.
func (t *Tree) Typed(p string) bool { return t.typed[p] }

// IsDir reports whether some indexed file lies under directory d ("" is the root).
func (t *Tree) IsDir(d string) bool { return d == "" || t.sub[d] }

// Files lists the indexed files directly in directory d, sorted.
func (t *Tree) Files(d string) []string { return t.dirs[d] }

// TopDirs lists the top-level directories, sorted.
func (t *Tree) TopDirs() []string { return t.top }

// parentDir is path.Dir with "" for the root.
func parentDir(p string) string {
	d := path.Dir(p)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// join is path.Join with "" for the root. A path that climbs above the root keeps
// its leading "../", which no indexed file has.
func join(elem ...string) string {
	p := path.Join(elem...)
	if p == "." {
		return ""
	}
	return p
}

// codeExts are the extensions stripped to name a module after its file.
var codeExts = []string{".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs",
	".pyi", ".py", ".go", ".rs", ".java", ".cs", ".rb", ".php", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"}

// stripExt removes a known source extension from a file name.
func stripExt(name string) string {
	for _, e := range codeExts {
		if strings.HasSuffix(name, e) && len(name) > len(e) {
			return name[:len(name)-len(e)]
		}
	}
	return name
}

// moduleKeys are the names under which the file at p could be imported: its base
// name with and without its extension, and its directory's name (a Python
// package's __init__.py, an index.ts, a Go package's files). An import recorded
// under one of them (a DepModule) may resolve differently once p appears or goes.
func moduleKeys(p string) []string {
	base := path.Base(p)
	keys := []string{base}
	if s := stripExt(base); s != base {
		keys = append(keys, s)
	}
	keys = append(keys, dirKey(parentDir(p)))
	if strings.HasSuffix(p, ".swift") { // the module a file of any of its folders joins
		keys = append(keys, dirKey(swiftModuleOf(p)))
	}
	return keys
}

// dirsEndingWith lists the folders whose path is suffix or ends with /suffix
// (letter case ignored when fold is set), sorted: where a Java package or a PHP
// namespace lives, whatever source root holds it. Memoised for the pass.
func (t *Tree) dirsEndingWith(suffix string, fold bool) []string {
	key := suffix
	if fold {
		key = "fold:" + strings.ToLower(suffix)
	}
	if ds, ok := t.suffixes[key]; ok {
		return ds
	}
	var out []string
	for d := range t.sub {
		tail := d
		if len(d) > len(suffix) {
			if d[len(d)-len(suffix)-1] != '/' {
				continue
			}
			tail = d[len(d)-len(suffix):]
		}
		if tail == suffix || (fold && strings.EqualFold(tail, suffix)) {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	if t.suffixes == nil {
		t.suffixes = map[string][]string{}
	}
	t.suffixes[key] = out
	return out
}

// filesWithExt lists the files directly in the folders dirs whose name ends with
// one of exts.
func (t *Tree) filesWithExt(dirs []string, exts ...string) []string {
	var out []string
	for _, d := range dirs {
		for _, f := range t.Files(d) {
			for _, e := range exts {
				if strings.HasSuffix(f, e) {
					out = append(out, f)
					break
				}
			}
		}
	}
	return out
}
