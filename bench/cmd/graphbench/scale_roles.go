package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/resolve"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// runLoadFloor is the typed index's floor: go/packages loads every module under
// dir with types, syntax and type information, tests included, dependencies from
// export data, offline, as the indexer's load does (internal/graph/golang), and
// keeps nothing else. It prints what it loaded.
func runLoadFloor(dir string) error {
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir {
			n := d.Name()
			if n == "testdata" || n == "vendor" || n == "node_modules" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
				return fs.SkipDir
			}
		}
		if !d.IsDir() && d.Name() == "go.mod" {
			dirs = append(dirs, filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		return err
	}
	var pkgs, errs int
	for _, d := range dirs {
		cfg := &packages.Config{
			Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
				packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
			Dir:   d,
			Env:   append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "GOPACKAGESDRIVER=off"),
			Tests: true,
		}
		loaded, err := packages.Load(cfg, "./...")
		if err != nil {
			return fmt.Errorf("load %s: %w", d, err)
		}
		pkgs += len(loaded)
		for _, p := range loaded {
			errs += len(p.Errors)
		}
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]int{"modules": len(dirs), "packages": pkgs, "errors": errs})
}

// runTreeSitterIndex builds the index the first answers come from: the walk,
// tree-sitter extraction of every file on every core, the store, the cross-file
// pass; no type checker.
func runTreeSitterIndex(dir, dbPath string) error {
	ctx := context.Background()
	phases := map[string]float64{}
	mark := time.Now()
	lap := func(name string) {
		phases[name+"_ms"] = ms(time.Since(mark))
		mark = time.Now()
	}
	if err := store.Remove(dbPath); err != nil {
		return err
	}
	st, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	scan, err := index.ScanTree(ctx, dir, index.Limits{})
	if err != nil {
		return err
	}
	lap("scan")
	facts := make([]graph.FileFacts, len(scan.Files))
	next := make(chan int)
	var wg sync.WaitGroup
	ex := treesitter.Extractor{}
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				f := scan.Files[i]
				base := graph.FileFacts{Path: f.Rel, Language: f.Language, Hash: f.Hash, Size: f.Size}
				src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Rel)))
				if err == nil {
					if got, err := ex.Extract(ctx, f.Rel, f.Language, src); err == nil {
						got.Path, got.Language, got.Hash, got.Size = f.Rel, f.Language, f.Hash, f.Size
						base = got
					} else {
						base.ParseError = err.Error()
					}
				}
				facts[i] = base
			}
		})
	}
	for i := range scan.Files {
		next <- i
	}
	close(next)
	wg.Wait()
	lap("extract")
	if err := st.ReplaceFiles(ctx, facts, nil); err != nil {
		return err
	}
	lap("store")
	if _, err := resolve.Update(ctx, st, dir, resolve.Options{}); err != nil {
		return err
	}
	lap("resolve")
	stats, err := st.Stats(ctx)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{"phases": phases, "nodes": stats.NodeCount, "edges": stats.EdgeCount, "files": stats.Files})
}
