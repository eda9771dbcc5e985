package agenttool

import (
	"strings"
	"testing"
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
	if !ok || !s.Watching || s.FullScans != 1 || s.DirScans != 1 || s.Runs != 1 {
		t.Fatalf("kept index stats = %+v (kept: %v), want watching, one full scan, one directory listing, one run", s, ok)
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
