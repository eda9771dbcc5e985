package treesitter

import (
	"context"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/internal/factstest"
)

// TestExtractFixtures extracts the sources of every testdata/extract/*.txtar
// and requires exactly the facts of its expected section, as render writes
// them, from a clean parse. `go test ./internal/graph/treesitter -run
// TestExtractFixtures -update` rewrites the sections; review the diff.
func TestExtractFixtures(t *testing.T) {
	t.Parallel()
	for _, path := range factstest.Glob(t, "testdata/extract/*.txtar") {
		t.Run(factstest.Name(path), func(t *testing.T) {
			t.Parallel()
			fx := factstest.Load(t, path)
			var got []string
			for _, src := range fx.Sources {
				ff, err := Extract(context.Background(), src.Name, fx.Language, src.Data)
				if err != nil {
					t.Fatal(err)
				}
				if ff.Path != src.Name || ff.Language != fx.Language || ff.Size != int64(len(src.Data)) || len(ff.Hash) != 64 {
					t.Errorf("%s: header = %q %q %d %q", src.Name, ff.Path, ff.Language, ff.Size, ff.Hash)
				}
				if ff.ParseError != "" || ff.Quarantined {
					t.Errorf("%s: ParseError = %q, Quarantined = %v", src.Name, ff.ParseError, ff.Quarantined)
				}
				checkFiles(t, ff)
				got = append(got, render(ff)...)
			}
			fx.Check(t, got)
		})
	}
}
