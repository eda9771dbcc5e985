package infra

import (
	"context"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/internal/factstest"
)

// TestExtractFixtures reads the sources of every testdata/extract/*.txtar with
// the extractor of its language and requires exactly the facts of its expected
// section, as render writes them, from a clean parse. `go test
// ./internal/graph/infra -update` rewrites the sections; review the diff.
func TestExtractFixtures(t *testing.T) {
	t.Parallel()
	extractors := map[string]func(context.Context, string, string, []byte) (graph.FileFacts, error){
		"dockerfile": Dockerfile,
		"yaml":       YAML,
	}
	for _, path := range factstest.Glob(t, "testdata/extract/*.txtar") {
		t.Run(factstest.Name(path), func(t *testing.T) {
			t.Parallel()
			fx := factstest.Load(t, path)
			extract := extractors[fx.Language]
			if extract == nil {
				t.Fatalf("%s: language %q has no extractor here (dockerfile, yaml)", path, fx.Language)
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
