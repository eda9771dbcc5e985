package treesitter

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// expectFacts extracts src and requires exactly the facts in want, each written as
// render writes it, and a clean parse.
func expectFacts(t *testing.T, rel, lang, src string, want []string) graph.FileFacts {
	t.Helper()
	ff, err := Extract(context.Background(), rel, lang, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ff.ParseError != "" || ff.Quarantined {
		t.Errorf("ParseError = %q, Quarantined = %v", ff.ParseError, ff.Quarantined)
	}
	checkFiles(t, ff)
	got, sorted := withoutRefs(render(ff), want), slices.Sorted(slices.Values(want))
	for _, w := range sorted {
		if !slices.Contains(got, w) {
			t.Errorf("missing: %s", w)
		}
	}
	for _, g := range got {
		if !slices.Contains(sorted, g) {
			t.Errorf("unexpected: %s", g)
		}
	}
	if t.Failed() {
		t.Logf("got:\n%s", strings.Join(got, "\n"))
	}
	return ff
}

// expectPartial extracts a file with a syntax error and requires that it is not
// quarantined, that ParseError names the error's line, and that the definitions
// around the error are still read.
func expectPartial(t *testing.T, rel, lang, src string, line string, qnames ...string) {
	t.Helper()
	ff, err := Extract(context.Background(), rel, lang, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ff.Quarantined || !strings.Contains(ff.ParseError, "line "+line) {
		t.Errorf("ParseError = %q, Quarantined = %v; want line %s, not quarantined", ff.ParseError, ff.Quarantined, line)
	}
	have := map[string]bool{}
	for _, n := range ff.Nodes {
		have[n.QName] = true
	}
	for _, q := range qnames {
		if !have[q] {
			t.Errorf("partial facts lack %s; nodes: %v", q, ff.Nodes)
		}
	}
	checkFiles(t, ff)
}
