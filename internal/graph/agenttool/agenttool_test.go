package agenttool

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// workspace writes a small Go module (example.com/ws, package calc) and returns a
// code_graph tool over it whose index lives outside the module.
func workspace(t *testing.T, files map[string]string, maxOutput int) (string, *Tool) {
	t.Helper()
	root := t.TempDir()
	files["go.mod"] = "module example.com/ws\n\ngo 1.22\n"
	for rel, src := range files {
		write(t, root, rel, src)
	}
	db := filepath.Join(t.TempDir(), "graph.db")
	tl := New(Config{
		Root:           root,
		IndexPath:      func(bool) (string, error) { return db, nil },
		Index:          index.Options{Go: golang.DefaultOptions(), Extract: treesitter.Extractor{}.Extract},
		MaxOutputBytes: maxOutput,
	})
	t.Cleanup(tl.Stop) // the kept index's watcher and store
	return root, tl
}

func write(t *testing.T, root, rel, src string) {
	t.Helper()
	path := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

const calcSrc = `package calc

// Add sums two numbers.
func Add(a, b int) int { return a + b }

func Double(x int) int { return Add(x, x) }
`

// decoded is the part of an answer the tests read.
type decoded struct {
	Question   string       `json:"question"`
	Certainty  string       `json:"certainty"`
	Why        string       `json:"why"`
	Items      []query.Item `json:"items"`
	ItemsTotal int          `json:"items_total"`
	Truncated  bool         `json:"truncated"`
	Note       string       `json:"note"`
	Index      Refresh      `json:"index"`
	DidYouMean []string     `json:"did_you_mean"`
}

func call(t *testing.T, tl tool.Tool, params map[string]any) (tool.Result, decoded) {
	t.Helper()
	raw, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tl.Run(context.Background(), tool.Call{ID: "c", Args: raw})
	if err != nil {
		t.Fatalf("code_graph %s: infrastructure error %v", raw, err)
	}
	var d decoded
	if !res.IsError || strings.HasPrefix(res.Output, "{") {
		if err := json.Unmarshal([]byte(res.Output), &d); err != nil {
			t.Fatalf("code_graph %s: output is not JSON (%v):\n%s", raw, err, res.Output)
		}
	}
	return res, d
}

func qnames(items []query.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.QName)
	}
	return out
}

// TestRefreshBeforeAnswer: the first call builds the index, the next one finds it
// fresh, and an edit is indexed again before the answer, which then includes it.
func TestRefreshBeforeAnswer(t *testing.T) {
	t.Parallel()
	root, tl := workspace(t, map[string]string{"calc/calc.go": calcSrc}, 0)
	ask := map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add"}

	res, d := call(t, tl, ask)
	if res.IsError || d.Index.Status != "indexed" || d.Index.TookMS <= 0 || d.Index.Extracted == 0 {
		t.Fatalf("first call: index = %+v, output:\n%s", d.Index, res.Output)
	}
	if d.Certainty != query.Exact || strings.Join(qnames(d.Items), " ") != "example.com/ws/calc.Double" {
		t.Fatalf("first call: %s %v, want exactly Double, exact", d.Certainty, qnames(d.Items))
	}
	if it := d.Items[0]; it.File != "calc/calc.go" || it.Line != 6 {
		t.Errorf("Double at %s:%d, want calc/calc.go:6", it.File, it.Line)
	}

	_, d = call(t, tl, ask)
	if d.Index != (Refresh{Status: "fresh"}) {
		t.Fatalf("second call on an unchanged tree: index = %+v, want fresh and no work", d.Index)
	}

	write(t, root, "calc/triple.go", "package calc\n\nfunc Triple(x int) int { return Add(Add(x, x), x) }\n")
	_, d = call(t, tl, ask)
	if d.Index.Status != "reindexed" || d.Index.Extracted == 0 {
		t.Fatalf("after an edit: index = %+v, want reindexed", d.Index)
	}
	if got := strings.Join(qnames(d.Items), " "); !strings.Contains(got, "calc.Triple") || !strings.Contains(got, "calc.Double") {
		t.Fatalf("after an edit: callers %s, want Double and Triple", got)
	}

	// A damaged index is built again, and the answer says so.
	db, _ := tl.g.cfg.IndexPath(false)
	if err := os.WriteFile(db, []byte(strings.Repeat("garbage!", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	res, d = call(t, tl, ask)
	if res.IsError || d.Index.Status != "rebuilt: it was corrupt" || len(d.Items) != 2 {
		t.Fatalf("on a corrupt index: index = %+v, output:\n%s", d.Index, res.Output)
	}
}

// TestParallelCallsIndexOnce: two calls racing on a workspace without an index
// index it once between them.
func TestParallelCallsIndexOnce(t *testing.T) {
	t.Parallel()
	_, tl := workspace(t, map[string]string{"calc/calc.go": calcSrc}, 0)
	var wg sync.WaitGroup
	statuses := make([]string, 2)
	for i := range statuses {
		wg.Go(func() {
			_, d := call(t, tl, map[string]any{"question": "definition", "symbol": "Add"})
			statuses[i] = d.Index.Status
		})
	}
	wg.Wait()
	if n := strings.Count(strings.Join(statuses, " "), "indexed"); n != 1 || !strings.Contains(strings.Join(statuses, " "), "fresh") {
		t.Fatalf("statuses = %v, want one indexed and one fresh", statuses)
	}
}

func TestModelVisibleErrors(t *testing.T) {
	t.Parallel()
	_, tl := workspace(t, map[string]string{"calc/calc.go": calcSrc}, 0)
	tests := []struct {
		name   string
		params map[string]any
		want   []string
	}{
		{"unknown symbol suggests", map[string]any{"question": "callers", "symbol": "Ad"}, []string{`"did_you_mean":[`, "example.com/ws/calc.Add"}},
		{"bad question lists the kinds", map[string]any{"question": "who_calls", "symbol": "Add"}, []string{`unknown question "who_calls"`, strings.Join(query.Kinds, ", ")}},
		{"empty symbol", map[string]any{"question": "callers", "symbol": " "}, []string{"symbol is empty"}},
		{"depth out of range", map[string]any{"question": "impact", "symbol": "Add", "depth": 11}, []string{"depth 11: want 1 to 10"}},
		{"missing question", map[string]any{"symbol": "Add"}, []string{"invalid arguments", "question"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := call(t, tl, tt.params)
			if !res.IsError {
				t.Fatalf("result is not an error:\n%s", res.Output)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Output, w) {
					t.Errorf("output lacks %q:\n%s", w, res.Output)
				}
			}
		})
	}
}

// TestOutputCap: an answer longer than the cap keeps the items that fit, stays
// valid JSON, and says how many there were.
func TestOutputCap(t *testing.T) {
	t.Parallel()
	const callers = 40
	var src strings.Builder
	src.WriteString(calcSrc)
	for i := range callers {
		fmt.Fprintf(&src, "\nfunc UsesAddNumber%03d() int { return Add(%d, 1) }\n", i, i)
	}
	const limit = 3000
	_, tl := workspace(t, map[string]string{"calc/calc.go": src.String()}, limit)
	res, d := call(t, tl, map[string]any{"question": "callers", "symbol": "Add"})
	if len(res.Output) > limit || !res.Truncated {
		t.Fatalf("output is %d bytes (truncated %v), want at most %d and truncated", len(res.Output), res.Truncated, limit)
	}
	if d.ItemsTotal != callers+1 || len(d.Items) == 0 || len(d.Items) >= d.ItemsTotal || !strings.Contains(d.Note, "narrower") {
		t.Fatalf("items %d of %d, note %q", len(d.Items), d.ItemsTotal, d.Note)
	}

	_, tl = workspace(t, map[string]string{"calc/calc.go": src.String()}, 0)
	res, d = call(t, tl, map[string]any{"question": "callers", "symbol": "Add"})
	if res.Truncated || d.ItemsTotal != 0 || len(d.Items) != callers+1 {
		t.Fatalf("under the default cap: %d items, items_total %d, truncated %v", len(d.Items), d.ItemsTotal, res.Truncated)
	}
}

func TestInfo(t *testing.T) {
	t.Parallel()
	_, tl := workspace(t, map[string]string{}, 0)
	info := tl.Info()
	if info.Name != "code_graph" || !info.ReadOnly || info.Kind != tool.KindSearch || !strings.Contains(info.Description, "lower-bound") {
		t.Fatalf("info = %+v", info)
	}
	var s struct {
		Properties map[string]struct {
			Enum []string `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(info.Schema, &s); err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.Properties["question"].Enum, ",") != strings.Join(query.Kinds, ",")+",changes" ||
		strings.Join(s.Properties["detail"].Enum, ",") != "full,ids" || strings.Join(s.Properties["format"].Enum, ",") != "json,tabular" ||
		strings.Join(s.Required, ",") != "question,symbol" {
		t.Fatalf("schema = %s", info.Schema)
	}
}

func TestWarmRefreshesOnlyAnExistingIndex(t *testing.T) {
	t.Parallel()
	root, tl := workspace(t, map[string]string{"calc/calc.go": calcSrc}, 0)
	ctx := context.Background()
	path, _ := tl.g.cfg.IndexPath(false)
	if err := tl.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("Warm built an index nobody asked for (stat: %v)", err)
	}
	ask := map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add"}
	if _, d := call(t, tl, ask); d.Index.Status != "indexed" {
		t.Fatalf("first call: %+v", d.Index)
	}
	write(t, root, "calc/triple.go", "package calc\n\nfunc Triple(x int) int { return Add(x, x) }\n")
	if err := tl.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	_, d := call(t, tl, ask)
	if d.Index.Status != "fresh" || !strings.Contains(strings.Join(qnames(d.Items), " "), "calc.Triple") {
		t.Fatalf("after Warm: index %+v, callers %v", d.Index, qnames(d.Items))
	}
}
