package golang

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// loadMode asks for syntax and types of the module's own packages, and where the
// export data of every package is (for Update). Dependencies
// (the standard library, other modules) come from compiler export data unless
// Options.FromSource adds NeedDeps: see FromSource for the trade-off.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo |
	packages.NeedModule | packages.NeedExportFile

// loadEnv are the defaults that keep loading offline; opts.Env is appended after
// them and wins.
//   - GOPROXY=off: loading never downloads a module; missing ones are package errors.
//   - GOTOOLCHAIN=local: nor a toolchain; a newer go line in go.mod fails clearly.
//   - GOPACKAGESDRIVER=off: always the go command, never an external driver.
//
// CGO_ENABLED is inherited, not forced to 0 as the ground-truth notes do
// (codegraph-eval §1.2): export data then comes from the same build cache entries
// as the user's own builds. A file that uses cgo is compiled through generated
// files outside the root, so it is absent from the result either way. The
// process's GOFLAGS is honoured (for example -mod=vendor); the go command's
// default -mod=readonly never rewrites go.mod.
var loadEnv = []string{"GOPROXY=off", "GOTOOLCHAIN=local", "GOPACKAGESDRIVER=off"}

// loaded is one module as go/packages returned it, with the content of every file
// it parsed.
type loaded struct {
	fset     *token.FileSet
	pkgs     []*packages.Package
	contents map[string]content // by absolute file name
}

type content struct {
	hash string
	size int64
	// header and build fingerprint the file for the snapshot (fileHeader,
	// fileBuild), taken from the bytes parsed so the file is not read again.
	header, build string
}

// load runs packages.Load on dir/... .
func load(ctx context.Context, dir string, opts Options) (*loaded, error) {
	l := &loaded{fset: token.NewFileSet(), contents: map[string]content{}}
	var mu sync.Mutex
	mode := loadMode
	if opts.FromSource {
		mode |= packages.NeedDeps
	}
	cfg := &packages.Config{
		Mode:       mode,
		Context:    ctx,
		Dir:        dir,
		Env:        append(append(os.Environ(), loadEnv...), opts.Env...),
		BuildFlags: opts.BuildFlags,
		Fset:       l.fset,
		Tests:      opts.Tests,
		// Hash what is parsed, so the hash and the facts always describe the same
		// bytes, and the file is read once.
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			sum := sha256.Sum256(src)
			f, err := parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
			c := content{hash: hex.EncodeToString(sum[:]), size: int64(len(src))}
			if f != nil {
				c.header, c.build = fileHeader(f, src), fileBuild(f, src)
			}
			mu.Lock()
			l.contents[filename] = c
			mu.Unlock()
			return f, err
		},
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, err
	}
	l.pkgs = pkgs
	return l, nil
}

// moduleDirs returns root and every directory under it holding a go.mod, skipping
// what the go command skips when it expands ./... (testdata, and names starting
// with "." or "_"), vendor and node_modules.
func moduleDirs(ctx context.Context, root string) ([]string, error) {
	dirs := []string{root}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil // an unreadable directory hides no module we could load
		}
		if !d.IsDir() {
			return nil
		}
		if path == root {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		name := d.Name()
		if name == "testdata" || name == "vendor" || name == "node_modules" ||
			strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
			dirs = append(dirs, path)
		}
		return nil
	})
	return dirs, err
}
