package infra

import (
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/internal/factstest"
)

// TestExtractFixtures reads the sources of every testdata/extract/*.txtar with
// the extractor of its language and requires exactly the facts of its expected
// section, as render writes them, from a clean parse. `go test
// ./internal/graph/infra -update` rewrites the sections; review the diff.
func TestExtractFixtures(t *testing.T) {
	t.Parallel()
	factstest.RunFixtures(t, "testdata/extract/*.txtar", map[string]factstest.Extractor{
		"dockerfile": Dockerfile,
		"yaml":       YAML,
	}, render)
}
