// Package golang extracts the exact code graph of Go modules: definitions, calls,
// references, implementations and embeddings as the type checker (go/packages and
// go/types) sees them, so every edge it produces is resolved by types, not by names.
//
// The tree-sitter extractor answers for Go code that does not load; this package is
// the exact path taken when it does. See Extract for the qualified-name rules.
package golang

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// Language is the value of graph.FileFacts.Language and graph.Node.Language.
const Language = "go"

// ErrNoModule reports that the root given to Extract has no go.mod: there is no
// module to type-check, and the caller should fall back to a syntactic extractor.
var ErrNoModule = errors.New("no go.mod at the root")

// Options tune Extract. The zero value is usable, except that Tests is false; use
// DefaultOptions for the usual settings.
type Options struct {
	// BuildFlags are passed to the go command (for example "-tags=integration").
	BuildFlags []string
	// Env entries are appended to the loading environment, after the process
	// environment and the defaults of loadEnv, so they win. Pass "GOPROXY=..." to
	// allow downloads: by default loading never fetches a module (GOPROXY=off), and
	// a module whose dependencies are not in the module cache reports them as
	// package errors instead.
	Env []string
	// Tests includes _test.go files (in-package and external test packages).
	Tests bool
	// FromSource type-checks dependencies from source instead of reading compiler
	// export data. Export data is the default: with a warm build cache it is about
	// 6× faster (this repository: 1.1 s against 6.9 s), but the go command compiles
	// whatever the cache lacks first, the module's changed packages included, and a
	// cold cache costs minutes (210 s for this repository on a 2-core machine).
	// FromSource compiles nothing.
	FromSource bool
	// ExportDir is where Update writes the export data of the packages it
	// re-checks after a surface change (the graph's own directory); empty, such
	// an edit needs a full load. It does not change what a load sees.
	ExportDir string
}

// DefaultOptions are the settings the indexer uses: tests included.
func DefaultOptions() Options { return Options{Tests: true} }

// Result is what Extract found.
type Result struct {
	// Files holds one entry per analysed .go file, sorted by path. A .go file the
	// type checker did not see (excluded by build constraints, under testdata, in a
	// package that failed to list) is absent: the caller covers it another way.
	Files []graph.FileFacts
	// Modules lists the modules loaded, the root module first.
	Modules []Module
	// Errors are the problems the go command, the parser and the type checker
	// reported, deduplicated and sorted. Facts are still produced for what resolved.
	Errors []Error
	// Snapshot lets Update re-check a package after an edit without the go command.
	Snapshot *Snapshot
}

// Module is one module found under the root.
type Module struct {
	// Dir is relative to the root ("." for the root module), with forward slashes.
	Dir string `json:"dir"`
	// Err is set when the module could not be loaded at all (its files are then
	// absent from Result.Files).
	Err string `json:"error,omitempty"`
}

// Error is one diagnostic from loading.
type Error struct {
	Package string `json:"package,omitempty"`
	// File is relative to the root when the file is under it, else as reported.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
	Kind string `json:"kind"` // "list", "parse", "type" or "unknown"
	Msg  string `json:"msg"`
}

func (e Error) String() string {
	if e.File == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Extract loads every package of the module at root and of the modules nested under
// it (the go tool's rules: testdata, vendor and directories starting with "." or "_"
// are skipped), type-checks them and returns one graph.FileFacts per .go file.
//
// Qualified names:
//   - package: its import path (an external test package keeps its "_test" suffix);
//   - function, type, constant, variable: <import path>.<Name>;
//   - method, struct field, interface method: <import path>.<Type>.<Name>, whatever
//     the receiver (value, pointer, generic: type parameters are dropped);
//   - init functions: <import path>.init@<file base name>, with "#2", "#3" … for the
//     second and later init of the same file, since a package may have many;
//   - file: its path relative to root;
//   - the predeclared error type and its method: "error" and "error.Error".
//
// The package node lives in the package's first non-test file by name (its first
// test file when it has only test files), so that loading with or without tests
// puts it in the same place.
//
// Extract returns ErrNoModule when root has no go.mod, and a wrapped error when the
// go command cannot load the root module at all (a nested module that fails is
// recorded in Result.Modules instead). Nothing is downloaded unless opts.Env allows
// it, and nothing is written to the module.
func Extract(ctx context.Context, root string, opts Options) (*Result, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("go extract %s: %w", root, err)
	}
	if _, err := os.Stat(filepath.Join(abs, "go.mod")); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("go extract %s: %w", root, ErrNoModule)
		}
		return nil, fmt.Errorf("go extract %s: %w", root, err)
	}
	dirs, err := moduleDirs(ctx, abs)
	if err != nil {
		return nil, fmt.Errorf("go extract %s: %w", root, err)
	}
	res := &Result{}
	ex := newExtraction(abs)
	snap := &Snapshot{Version: snapshotVersion, Key: snapshotKey(opts), ModFiles: map[string]string{},
		Variants: map[string]*Variant{}, Files: map[string]FileRecord{}}
	for i, dir := range dirs {
		rel := relSlash(abs, dir)
		lr, err := load(ctx, dir, opts)
		if err != nil {
			if i == 0 || ctx.Err() != nil {
				return nil, fmt.Errorf("go extract %s: load module %s: %w", root, rel, err)
			}
			res.Modules = append(res.Modules, Module{Dir: rel, Err: err.Error()})
			continue
		}
		res.Modules = append(res.Modules, Module{Dir: rel})
		units, decls, err := ex.add(ctx, lr)
		if err != nil {
			return nil, fmt.Errorf("go extract %s: module %s: %w", root, rel, err)
		}
		ex.recordSnapshot(snap, rel, lr, units, decls)
	}
	res.Files = ex.files()
	recordFacts(snap, res.Files)
	res.Errors = ex.errs.sorted()
	snap.Errors = len(res.Errors)
	snap.FirstErrors = FirstErrors(res.Errors)
	res.Snapshot = snap
	return res, nil
}

// relSlash is path relative to root with forward slashes, or path itself (slashed)
// when it is not under root.
func relSlash(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

// errorSet deduplicates diagnostics: the test variant of a package reports its
// non-test files' errors a second time.
type errorSet map[Error]struct{}

func (s errorSet) add(e Error) { s[e] = struct{}{} }

func (s errorSet) sorted() []Error {
	out := make([]Error, 0, len(s))
	for e := range s {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Msg < b.Msg
	})
	return out
}

// MetaLoadError is the store meta key under which the indexer keeps why the
// module did not load (LoadErrorText), "" when it did: answers drawn from the
// tree-sitter fallback cite it.
const MetaLoadError = "go_load_error"

// MetaTypesPending is the store meta key the indexer sets to TypesPending while
// its Go facts are a first pass's (definitions only) because the type
// checker's pass has not landed yet (a first index answers before the module
// is type-checked), and clears when it lands: answers about Go are lower
// bounds until then.
const MetaTypesPending = "go_types_pending"

// TypesPending is MetaTypesPending's value while the type checker's pass is due,
// written as answers cite it.
const TypesPending = "type-checking in progress"

// maxLoadErrorLines bounds LoadErrorText: the go command's first lines say
// what failed (a go.mod line, a Go version); the rest repeats it. A judgement.
const maxLoadErrorLines = 5

// LoadErrorText is why Extract could not load the module at root, for a
// report: the go command's first lines, with root's absolute path written
// relative to it (so "go.mod:3: unknown directive" keeps its file:line) and the
// wrapping that says nothing new left out.
func LoadErrorText(root string, err error) string {
	if errors.Is(err, ErrNoModule) {
		return ErrNoModule.Error()
	}
	msg := err.Error()
	if _, stderr, ok := strings.Cut(msg, "stderr: "); ok {
		msg = stderr // the go command's own words, after go/packages' wrapping
	}
	if abs, aerr := filepath.Abs(root); aerr == nil {
		msg = strings.ReplaceAll(msg, abs+string(filepath.Separator), "")
		msg = strings.ReplaceAll(msg, abs, ".")
	}
	var lines []string
	for _, l := range strings.Split(msg, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > maxLoadErrorLines {
		lines = append(lines[:maxLoadErrorLines], fmt.Sprintf("(%d more lines)", len(lines)-maxLoadErrorLines))
	}
	return strings.Join(lines, "\n")
}

// MaxListedErrors bounds the diagnostics a report lists: enough to see the pattern
// (a module not downloaded fails every package that imports it), small enough for a
// terminal. A judgement, not a measurement.
const MaxListedErrors = 20

// FirstErrors is errs cut to MaxListedErrors.
func FirstErrors(errs []Error) []Error {
	return errs[:min(len(errs), MaxListedErrors)]
}
