package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
)

// graphAnswer is the part of a code_graph answer the tests read.
type graphAnswer struct {
	Question string `json:"question"`
	Items    []struct {
		QName string `json:"qualified_name"`
		File  string `json:"file"`
		Line  int    `json:"line"`
	} `json:"items"`
	Index struct {
		Status string `json:"status"`
	} `json:"index"`
}

// TestCodeGraph: files written with write_file are indexed on the first question,
// and an edit is seen by the next one (the index is refreshed before each answer).
func TestCodeGraph(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cs := h.connect(t)
	for p, content := range map[string]string{
		"proj/go.mod":   "module example.com/proj\n\ngo 1.22\n",
		"proj/calc.go":  "package calc\n\n// Add sums two numbers.\nfunc Add(a, b int) int { return a + b }\n",
		"proj/twice.go": "package calc\n\nfunc Double(x int) int { return Add(x, x) }\n",
	} {
		if res := call(t, cs, "write_file", map[string]any{"path": p, "content": content}); res.IsError {
			t.Fatalf("write_file %s = %s", p, text(res))
		}
	}
	ask := func(symbol string) graphAnswer {
		t.Helper()
		res := call(t, cs, "code_graph", map[string]any{"workspace": "proj", "question": "callers", "symbol": symbol})
		var a graphAnswer
		if err := json.Unmarshal([]byte(text(res)), &a); err != nil || res.IsError {
			t.Fatalf("code_graph callers %s = error %v %s (%v)", symbol, res.IsError, text(res), err)
		}
		if res.StructuredContent == nil {
			t.Errorf("code_graph callers %s: no structuredContent", symbol)
		}
		return a
	}
	a := ask("Add")
	if len(a.Items) != 1 || a.Items[0].QName != "example.com/proj.Double" || a.Items[0].File != "twice.go" || a.Index.Status != "indexed" {
		t.Errorf("callers of Add = %+v, want Double in twice.go, freshly indexed", a)
	}
	// The index is where the CLI puts it for that folder.
	if _, err := os.Stat(filepath.Join(h.root, "proj", ".albert-code", "graph", "graph.db")); err != nil {
		t.Errorf("no index in the workspace: %v", err)
	}
	call(t, cs, "write_file", map[string]any{"path": "proj/quad.go", "content": "package calc\n\nfunc Quad(x int) int { return Double(Double(x)) }\n"})
	a = ask("Double")
	if len(a.Items) != 1 || a.Items[0].QName != "example.com/proj.Quad" || a.Index.Status != "reindexed" {
		t.Errorf("callers of Double after an edit = %+v, want Quad, reindexed", a)
	}

	// Concurrent calls on one workspace share its tool: all answer.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			res, err := cs.CallTool(t.Context(), &mcpsdk.CallToolParams{Name: "code_graph",
				Arguments: map[string]any{"workspace": "proj", "question": "callers", "symbol": "Add"}})
			if err != nil || res.IsError || !strings.Contains(text(res), "example.com/proj.Double") {
				t.Errorf("concurrent code_graph = %v %v", err, res)
			}
		})
	}
	wg.Wait()
	if n := h.mcp.graphs.len(); n != 1 {
		t.Errorf("%d code_graph tools kept for one workspace", n)
	}
}

// TestCodeGraphErrors: a refused workspace, a missing one and a bad question are
// tool errors naming the fault; nothing is indexed outside the root.
func TestCodeGraphErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "x.go"), "package x\n\nfunc X() {}\n")
	if err := os.Symlink(outside, filepath.Join(h.root, "escape")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(h.root, "ws", "a.go"), "package a\n\nfunc A() {}\n")
	cs := h.connect(t)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"workspace": "../", "question": "definition", "symbol": "X"}, `".." is not allowed`},
		{map[string]any{"workspace": "/etc", "question": "definition", "symbol": "X"}, "absolute paths are not allowed"},
		{map[string]any{"workspace": "escape", "question": "definition", "symbol": "X"}, "symbolic link leads outside"},
		{map[string]any{"workspace": "missing", "question": "definition", "symbol": "X"}, "no such workspace"},
		{map[string]any{"workspace": "ws/a.go", "question": "definition", "symbol": "X"}, "not a directory"},
		{map[string]any{"workspace": "ws", "question": "whatever", "symbol": "A"}, "question"},
		{map[string]any{"workspace": "ws", "question": "definition", "symbol": "Nope"}, "did_you_mean"},
	} {
		res := call(t, cs, "code_graph", tc.args)
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("code_graph(%v) = error %v %q, want an error with %q", tc.args, res.IsError, text(res), tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, ".albert-code")); !os.IsNotExist(err) {
		t.Errorf("an index was made outside the root: %v", err)
	}
}

// TestGraphCacheBound: past its bound the cache drops the least recently used idle
// tool, never one in use, and gives one workspace one tool.
func TestGraphCacheBound(t *testing.T) {
	t.Parallel()
	built := map[string]int{}
	c := newGraphCache(2, func(dir string) *agenttool.Tool { built[dir]++; return newGraphTool(dir) })
	a, releaseA := c.acquire("/a") // held throughout
	b, release := c.acquire("/b")
	release()
	_, release = c.acquire("/c") // /b is the oldest idle one: dropped
	release()
	// A dropped tool is stopped, which closes the index it kept open and watched.
	for deadline := time.Now().Add(10 * time.Second); !b.Stopped(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the dropped tool was not stopped")
		}
	}
	if a.Stopped() {
		t.Fatal("a tool in use was stopped")
	}
	if n := c.len(); n != 2 {
		t.Errorf("%d tools kept, want 2", n)
	}
	a2, release := c.acquire("/a")
	release()
	if a2 != a {
		t.Error("a workspace in use got a second tool")
	}
	_, release = c.acquire("/b")
	release()
	if built["/b"] != 2 || built["/a"] != 1 {
		t.Errorf("builds = %v, want /b rebuilt after eviction and /a kept", built)
	}
	releaseA()
	releaseA() // a second release is harmless
	if n := c.len(); n != 2 {
		t.Errorf("%d tools kept after release, want 2", n)
	}
}
