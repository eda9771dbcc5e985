package resolve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/resolve"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// Shape of the synthetic repository: 20 packages × 50 modules = 1,000 files.
const (
	benchPackages = 20
	benchModules  = 50
)

// benchModule writes pkgK/modI.py: five functions, a class whose base lives in
// the package's mod0, and a method that calls across files every way the pass
// follows: a relative symbol import, a submodule import, an aliased absolute
// import, an inherited method, plus a builtin (not found) and a method name
// every class defines (ambiguous). version changes a body, not a name; renamed
// renames the function the module's importers call.
func benchModule(k, i, version int, renamed bool) string {
	var b strings.Builder
	a, c, d := (k+1)%benchPackages, (i+7)%benchModules, (k+3)%benchPackages
	fmt.Fprintf(&b, "import os\n\nimport pkg%02d.mod%02d as m\n", d, (i+3)%benchModules)
	fmt.Fprintf(&b, "from ..pkg%02d.mod%02d import func_%d_%d_0\n", a, i, a, i)
	fmt.Fprintf(&b, "from . import mod%02d\n", c)
	if i > 0 {
		fmt.Fprintf(&b, "from .mod00 import Base%d\n", k)
	}
	b.WriteString("\n\n")
	for f := range 5 {
		suffix := ""
		if renamed && f == 0 {
			suffix = "_renamed"
		}
		fmt.Fprintf(&b, "def func_%d_%d_%d%s(x):\n    return x + %d\n\n\n", k, i, f, suffix, f+version)
	}
	if i == 0 {
		fmt.Fprintf(&b, "class Base%d:\n    def helper(self):\n        return 1\n\n    def close(self):\n        return 0\n", k)
		return b.String()
	}
	fmt.Fprintf(&b, "class Service_%d_%d(Base%d):\n    def run(self, obj):\n", k, i, k)
	fmt.Fprintf(&b, "        func_%d_%d_0(1)\n", a, i)
	fmt.Fprintf(&b, "        mod%02d.func_%d_%d_1(2)\n", c, k, c)
	fmt.Fprintf(&b, "        m.func_%d_%d_2(3)\n", d, (i+3)%benchModules)
	b.WriteString("        self.helper()\n        print(os.getcwd())\n        obj.close()\n")
	fmt.Fprintf(&b, "        return %d\n\n    def close(self):\n        return 1\n", version)
	return b.String()
}

type benchRepo struct {
	root string
	st   *store.Store
}

// newBenchRepo generates and indexes the repository once per benchmark.
func newBenchRepo(b *testing.B) *benchRepo {
	b.Helper()
	root := b.TempDir()
	for k := range benchPackages {
		if err := write(root, fmt.Sprintf("pkg%02d/__init__.py", k), ""); err != nil {
			b.Fatal(err)
		}
		for i := range benchModules - 1 { // with __init__.py, 50 files a package
			if err := write(root, fmt.Sprintf("pkg%02d/mod%02d.py", k, i), benchModule(k, i, 0, false)); err != nil {
				b.Fatal(err)
			}
		}
	}
	st, err := store.Open(filepath.Join(b.TempDir(), "graph.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	rep, err := index.Run(context.Background(), root, st, index.Options{Extract: treesitter.Extractor{}.Extract})
	if err != nil {
		b.Fatal(err)
	}
	if rep.Files != benchPackages*benchModules || rep.Resolve.ByImport == 0 {
		b.Fatalf("setup: %d files, resolution %+v", rep.Files, rep.Resolve)
	}
	return &benchRepo{root: root, st: st}
}

// BenchmarkResolveFull resolves all 1,000 files again.
func BenchmarkResolveFull(b *testing.B) {
	r := newBenchRepo(b)
	ctx := context.Background()
	var c *resolve.Counts
	var err error
	for b.Loop() {
		if c, err = resolve.Update(ctx, r.st, r.root, resolve.Options{Full: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(c.Files), "files")
	b.ReportMetric(float64(c.ByImport+c.ByName+c.Unresolved), "sites")
}

// BenchmarkResolveOneFile times the pass alone after one module's body changed
// (its facts replaced outside the timer), as the indexer runs it: the module's
// shape is unchanged, so it alone is resolved again.
func BenchmarkResolveOneFile(b *testing.B) { benchOneFile(b, false) }

// BenchmarkResolveOneFileRename is the same with the function its importers call
// renamed, then named back, in turn: the module and its importers are redone.
func BenchmarkResolveOneFileRename(b *testing.B) { benchOneFile(b, true) }

func benchOneFile(b *testing.B, rename bool) {
	r := newBenchRepo(b)
	ctx := context.Background()
	const k, i = 5, 17
	rel := fmt.Sprintf("pkg%02d/mod%02d.py", k, i)
	var c *resolve.Counts
	version := 0
	for b.Loop() {
		b.StopTimer()
		version++
		src := []byte(benchModule(k, i, version, rename && version%2 == 1))
		facts, err := treesitter.Extract(ctx, rel, "python", src)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.st.ReplaceFiles(ctx, []graph.FileFacts{facts}, nil); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if c, err = resolve.Update(ctx, r.st, r.root, resolve.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(c.Files), "files")
}

// BenchmarkIndexOneFile times a whole incremental index run after one module's
// body changed on disk: scan and hash 1,000 files, extract one, store it, resolve.
func BenchmarkIndexOneFile(b *testing.B) {
	r := newBenchRepo(b)
	ctx := context.Background()
	const k, i = 5, 17
	p := filepath.Join(r.root, fmt.Sprintf("pkg%02d", k), fmt.Sprintf("mod%02d.py", i))
	version := 0
	var rep *index.Report
	for b.Loop() {
		b.StopTimer()
		version++
		if err := os.WriteFile(p, []byte(benchModule(k, i, version, false)), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		var err error
		if rep, err = index.Run(ctx, r.root, r.st, index.Options{Extract: treesitter.Extractor{}.Extract}); err != nil {
			b.Fatal(err)
		}
	}
	if rep.Extracted != 1 {
		b.Fatalf("the run extracted %d files, want 1", rep.Extracted)
	}
	b.ReportMetric(float64(rep.Resolve.Files), "files")
}
