package agenttool

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// Within a session the index stays open and watched: a question after an edit
// sees it, and no question walks the tree again.
func TestSessionKeepsTheIndexAndSeesEditsWithoutWalking(t *testing.T) {
	t.Parallel()
	root, tl := workspace(t, map[string]string{"calc/calc.go": calcSrc}, 0)
	ask := map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add"}
	if _, d := call(t, tl, ask); d.Index.Status != "indexed" {
		t.Fatalf("first call: %+v", d.Index)
	}
	if _, d := call(t, tl, ask); d.Index.Status != "fresh" {
		t.Fatalf("second call: %+v", d.Index)
	}
	write(t, root, "calc/calc.go", calcSrc+"\nfunc Twice(x int) int { return Add(x, x) }\n")
	_, d := call(t, tl, ask)
	if d.Index.Status != "reindexed" || !strings.Contains(strings.Join(qnames(d.Items), " "), "calc.Twice") {
		t.Fatalf("after an edit: index %+v, callers %v", d.Index, qnames(d.Items))
	}
	s, ok := tl.g.keptStats()
	if !ok || !s.Watching || s.FullScans != 1 || s.DirScans != 1 || s.Runs != 2 || s.TypedPasses != 1 {
		t.Fatalf("kept index stats = %+v (kept: %v), want watching, one full scan, one directory listing, two runs (the type checker's pass after the first, the edit)", s, ok)
	}

	tl.Stop()
	if _, ok := tl.g.keptStats(); ok {
		t.Fatal("Stop left the index kept open")
	}
	write(t, root, "calc/calc.go", calcSrc+"\nfunc Thrice(x int) int { return Add(x, Add(x, x)) }\n")
	if _, d := call(t, tl, ask); !strings.Contains(strings.Join(qnames(d.Items), " "), "calc.Thrice") {
		t.Fatalf("after Stop a question no longer sees edits: %v", qnames(d.Items))
	}
	if _, ok := tl.g.keptStats(); ok {
		t.Fatal("a question after Stop kept the index open again")
	}
}

// A session's first question builds the index in two passes and is answered
// from the first: a definition at once, while the type checker's pass runs in
// the background; a question about callers waits for that pass at most
// TypesWait, then gets the first pass's lower bound and why. Once the pass
// lands, the same question is answered from it.
func TestFirstQuestionIsAnsweredFromTheFirstPass(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, "go.mod", "module example.com/ws\n\ngo 1.22\n")
	write(t, root, "calc/calc.go", calcSrc)
	hold := make(chan struct{})
	db := filepath.Join(t.TempDir(), "graph.db")
	tl := New(Config{
		Root:      root,
		IndexPath: func(bool) (string, error) { return db, nil },
		Index:     index.Options{Go: golang.DefaultOptions(), Extract: treesitter.Extractor{}.Extract, HoldTypes: hold},
		TypesWait: 50 * time.Millisecond,
	})
	t.Cleanup(tl.Stop)

	_, d := call(t, tl, map[string]any{"question": "definition", "symbol": "example.com/ws/calc.Add"})
	if d.Index.Status != "indexed" || !d.Index.TypesPending || len(d.Items) != 1 || d.Items[0].File != "calc/calc.go" {
		t.Fatalf("first question (definition): index %+v, items %+v; want the first pass's answer, types pending", d.Index, d.Items)
	}
	_, d = call(t, tl, map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add"})
	if d.Certainty != "lower-bound" || !strings.Contains(d.Why, golang.TypesPending) || !d.Index.TypesPending {
		t.Fatalf("callers while the typed pass is held: %s, %q, index %+v; want lower-bound citing %q", d.Certainty, d.Why, d.Index, golang.TypesPending)
	}

	close(hold)
	tl.g.refreshing.Lock()
	l := tl.g.kept
	tl.g.refreshing.Unlock()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := l.WaitTypes(ctx); err != nil {
		t.Fatal(err)
	}
	_, d = call(t, tl, map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add"})
	if d.Certainty != "exact" || d.Index.TypesPending || !slices.Equal(qnames(d.Items), []string{"example.com/ws/calc.Double"}) {
		t.Fatalf("callers once the pass may land: %s, %q, index %+v, callers %v; want exactly calc.Double", d.Certainty, d.Why, d.Index, qnames(d.Items))
	}
}
