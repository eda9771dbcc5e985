package treesitter

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/internal/factstest"
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

// withoutRefs drops name uses (references edges and sites) from got unless want
// mentions one: the definition and call tables are checked apart from the uses,
// which refs_test.go checks per language (a fixture says `references: omitted`).
func withoutRefs(got, want []string) []string {
	if slices.ContainsFunc(want, factstest.IsReference) {
		return got
	}
	return slices.DeleteFunc(got, factstest.IsReference)
}

// render writes facts one per line, sorted, so a case or a fixture lists
// exactly what it expects.
func render(ff graph.FileFacts) []string {
	var out []string
	for _, n := range ff.Nodes {
		s := fmt.Sprintf("node %s %s %d:%d-%d", n.Kind, n.QName, n.Line, n.Col, n.EndLine)
		if n.Signature != "" {
			s += fmt.Sprintf(" sig=%q", n.Signature)
		}
		if n.Doc != "" {
			s += fmt.Sprintf(" doc=%q", n.Doc)
		}
		if n.Exported {
			s += " exported"
		}
		out = append(out, s)
	}
	for _, e := range ff.Edges {
		out = append(out, fmt.Sprintf("edge %s %s -> %s %.2g %s @%d", e.Kind, e.From, e.To, e.Confidence, e.Resolution, e.Line))
	}
	for _, u := range ff.Unresolved {
		out = append(out, fmt.Sprintf("unresolved %s %s -> %s @%d:%d", u.Kind, u.From, u.Name, u.Line, u.Col))
	}
	slices.Sort(out)
	return out
}

// checkFiles enforces the store's rule: every fact belongs to the file it was read from.
func checkFiles(t *testing.T, ff graph.FileFacts) {
	t.Helper()
	for _, n := range ff.Nodes {
		if n.File != ff.Path {
			t.Errorf("node %s: File %q, want %q", n.QName, n.File, ff.Path)
		}
	}
	for _, e := range ff.Edges {
		if e.File != ff.Path {
			t.Errorf("edge %s -> %s: File %q, want %q", e.From, e.To, e.File, ff.Path)
		}
	}
	for _, u := range ff.Unresolved {
		if u.File != ff.Path {
			t.Errorf("unresolved %s: File %q, want %q", u.Name, u.File, ff.Path)
		}
	}
}
