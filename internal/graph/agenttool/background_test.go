package agenttool

import (
	"os"
	"strings"
	"testing"
	"time"
)

// waitIdle waits for the background refreshes to finish (bounded).
func waitIdle(t *testing.T, tl *Tool) int {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		tl.g.bg.mu.Lock()
		running, runs := tl.g.bg.running, tl.g.bg.runs
		tl.g.bg.mu.Unlock()
		if !running {
			return runs
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("background refresh still running after 60 s")
	return 0
}

// A change refreshes an existing index in the background, so the next question
// finds it fresh; while nothing changes, nothing runs.
func TestChangedRefreshesInTheBackground(t *testing.T) {
	t.Parallel()
	root, tl := workspace(t, map[string]string{"calc/calc.go": calcSrc}, 0)
	defer tl.Stop()
	ask := map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add"}
	if _, d := call(t, tl, ask); d.Index.Status != "indexed" {
		t.Fatalf("first call: %+v", d.Index)
	}
	if runs := waitIdle(t, tl); runs != 0 {
		t.Fatalf("questions alone started %d refreshes", runs)
	}
	write(t, root, "calc/triple.go", "package calc\n\nfunc Triple(x int) int { return Add(x, x) }\n")
	tl.Changed()
	if runs := waitIdle(t, tl); runs != 1 {
		t.Fatalf("a change started %d refreshes, want 1", runs)
	}
	_, d := call(t, tl, ask)
	if d.Index.Status != "fresh" || !strings.Contains(strings.Join(qnames(d.Items), " "), "calc.Triple") {
		t.Fatalf("after the background refresh: index %+v, callers %v", d.Index, qnames(d.Items))
	}
}

func TestChangedLeavesAWorkspaceWithoutIndexAlone(t *testing.T) {
	t.Parallel()
	_, tl := workspace(t, map[string]string{"calc/calc.go": calcSrc}, 0)
	tl.Changed()
	waitIdle(t, tl)
	tl.Stop()
	path, _ := tl.g.cfg.IndexPath(false)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a change built an index nobody asked for (stat: %v)", err)
	}
	before := tl.g.bg.runs
	tl.Changed() // after Stop: ignored
	if tl.g.bg.runs != before || tl.g.bg.running {
		t.Fatal("Changed after Stop started a refresh")
	}
}
