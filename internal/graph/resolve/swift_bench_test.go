package resolve_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/resolve"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// benchSwiftFiles is the size of the synthetic Swift module: one target whose
// files all see each other, as Xcode projects and large Swift packages have.
const benchSwiftFiles = 400

// benchSwiftFile writes Sources/Big/T<i>.swift: a struct with one method and a
// function that builds ten structs of other files, calls their methods and
// their files' functions, none of them imported (module-wide visibility).
func benchSwiftFile(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "struct T%d {\n    func m%d() {}\n}\n\nfunc f%d() {\n", i, i, i)
	for k := 1; k <= 10; k++ {
		j := (i*7 + k*13) % benchSwiftFiles
		fmt.Fprintf(&b, "    let x%d = T%d()\n    x%d.m%d()\n    f%d()\n", k, j, k, j, j)
	}
	b.WriteString("}\n")
	return b.String()
}

// BenchmarkResolveSwiftModule resolves every file of one 400-file Swift module
// again: each site looks its name up module-wide.
func BenchmarkResolveSwiftModule(b *testing.B) {
	root := b.TempDir()
	for i := range benchSwiftFiles {
		if err := write(root, fmt.Sprintf("Sources/Big/T%d.swift", i), benchSwiftFile(i)); err != nil {
			b.Fatal(err)
		}
	}
	st, err := store.Open(filepath.Join(b.TempDir(), "graph.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	ctx := context.Background()
	if _, err := index.Run(ctx, root, st, index.Options{Extract: treesitter.Extractor{}.Extract}); err != nil {
		b.Fatal(err)
	}
	var c *resolve.Counts
	for b.Loop() {
		if c, err = resolve.Update(ctx, st, root, resolve.Options{Full: true}); err != nil {
			b.Fatal(err)
		}
	}
	if c.Unresolved != 0 {
		b.Fatalf("%d sites left unresolved", c.Unresolved)
	}
	b.ReportMetric(float64(c.ByImport), "by-import")
	b.ReportMetric(float64(c.ByName), "by-name")
}
