package factstest

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// Extractor reads one file's facts, as the file extractors do.
type Extractor func(ctx context.Context, path, language string, src []byte) (graph.FileFacts, error)

// RunFixtures checks every archive matching pattern: each of its sources, read by
// the extractor of the archive's language from a clean parse, must give exactly
// the expected facts as render writes them (`-update` rewrites them instead).
func RunFixtures(t *testing.T, pattern string, extractors map[string]Extractor, render func(*testing.T, graph.FileFacts) []string) {
	t.Helper()
	for _, path := range Glob(t, pattern) {
		t.Run(Name(path), func(t *testing.T) {
			t.Parallel()
			fx := Load(t, path)
			extract := extractors[fx.Language]
			if extract == nil {
				t.Fatalf("%s: language %q has no extractor here %v", path, fx.Language, slices.Sorted(maps.Keys(extractors)))
			}
			var got []string
			for _, src := range fx.Sources {
				ff, err := extract(context.Background(), src.Name, fx.Language, src.Data)
				if err != nil || ff.ParseError != "" {
					t.Fatalf("%s: %v %s", src.Name, err, ff.ParseError)
				}
				got = append(got, render(t, ff)...)
			}
			fx.Check(t, got)
		})
	}
}
