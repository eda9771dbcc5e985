package textref

import (
	"fmt"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/internal/factstest"
)

// TestExtractFixtures reads the sources of every testdata/extract/*.txtar with
// the extractor of its language and requires exactly the facts of its expected
// section, as render writes them, from a clean parse. `go test
// ./internal/graph/textref -update` rewrites the sections; review the diff.
func TestExtractFixtures(t *testing.T) {
	t.Parallel()
	factstest.RunFixtures(t, "testdata/extract/*.txtar", map[string]factstest.Extractor{
		"markdown": Markdown,
		"shell":    Shell,
	}, render)
}

// render writes facts one a line, sorted: the form of the fixtures' expected
// sections. Every fact must belong to the file it was read from.
func render(t *testing.T, ff graph.FileFacts) []string {
	t.Helper()
	var out []string
	for _, n := range ff.Nodes {
		if n.File != ff.Path {
			t.Errorf("node %s in file %q, want %q", n.QName, n.File, ff.Path)
		}
		out = append(out, fmt.Sprintf("node %s %s %q %d-%d", n.Kind, n.QName, n.Name, n.Line, n.EndLine))
	}
	for _, e := range ff.Edges {
		if e.File != ff.Path {
			t.Errorf("edge %s -> %s in file %q", e.From, e.To, e.File)
		}
		out = append(out, fmt.Sprintf("edge %s %s -> %s %.1f @%d", e.Kind, e.From, e.To, e.Confidence, e.Line))
	}
	for _, u := range ff.Unresolved {
		out = append(out, fmt.Sprintf("unresolved %s %s -> %s @%d (%s)", u.Kind, u.From, u.Name, u.Line, u.Reason))
	}
	slices.Sort(out)
	return out
}
