package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/etalab-ia/albert-code/internal/graph/index"
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

// runTreeSitterIndex builds the index the first answers come from: the
// engine's first pass (index.FirstPass: the walk, Go's definitions read by
// go/parser and the other files extracted by tree-sitter, on every core, the
// store; no type checker, the cross-file pass left for the typed pass), as
// `graph index` runs it on a new index before the type checker's pass lands.
// A profile path, when given, receives the pass's CPU profile (go tool pprof).
func runTreeSitterIndex(dir, dbPath, profile string) error {
	ctx := context.Background()
	if err := store.Remove(dbPath); err != nil {
		return err
	}
	st, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	start := time.Now()
	rep, err := index.FirstPass(ctx, dir, st, index.Options{Extract: treesitter.Extractor{}.Extract})
	if err != nil {
		return err
	}
	phases := map[string]float64{"first_pass_ms": ms(time.Since(start))}
	for k, v := range rep.Phases {
		phases[k+"_ms"] = v
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{"phases": phases, "nodes": stats.NodeCount, "edges": stats.EdgeCount, "files": stats.Files})
}
