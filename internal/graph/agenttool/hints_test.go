package agenttool

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/artifact"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// run calls the tool without decoding its answer (a compact one has strings
// where call expects items).
func run(t *testing.T, tl *Tool, params map[string]any) tool.Result {
	t.Helper()
	raw, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tl.Run(t.Context(), tool.Call{ID: "c", Args: raw})
	if err != nil {
		t.Fatalf("code_graph %s: infrastructure error %v", raw, err)
	}
	return res
}

// The answer hints at the next question as a code_graph call that works as
// given; detail ids and format tabular shorten the items.
func TestNextStepsAndCompactAnswers(t *testing.T) {
	t.Parallel()
	_, tl := workspace(t, map[string]string{"calc/calc.go": calcSrc}, 0)
	res, _ := call(t, tl, map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add"})
	var full struct {
		NextSteps []NextStep `json:"next_steps"`
	}
	if err := json.Unmarshal([]byte(res.Output), &full); err != nil {
		t.Fatal(err)
	}
	if len(full.NextSteps) == 0 || full.NextSteps[0].Tool != Name || full.NextSteps[0].Arguments["question"] != "impact" ||
		full.NextSteps[0].Arguments["symbol"] != "example.com/ws/calc.Add" {
		t.Fatalf("next_steps = %+v", full.NextSteps)
	}
	if next, d := call(t, tl, full.NextSteps[0].Arguments); next.IsError || d.Question != "impact" || len(d.Items) == 0 {
		t.Fatalf("following the hint: %s", next.Output)
	}

	res = run(t, tl, map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add", "detail": "ids"})
	var ids struct {
		Items     []string `json:"items"`
		Certainty string   `json:"certainty"`
	}
	if err := json.Unmarshal([]byte(res.Output), &ids); err != nil || strings.Join(ids.Items, " ") != "example.com/ws/calc.Double" || ids.Certainty == "" {
		t.Fatalf("detail ids = %s (%v)", res.Output, err)
	}
	res = run(t, tl, map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add", "format": "tabular"})
	var tab struct {
		Items string `json:"items"`
	}
	if err := json.Unmarshal([]byte(res.Output), &tab); err != nil || !strings.HasPrefix(tab.Items, "qualified_name\tkind\tfile\tline") ||
		!strings.Contains(tab.Items, "\nexample.com/ws/calc.Double\tfunction\tcalc/calc.go\t6") {
		t.Fatalf("format tabular = %s (%v)", res.Output, err)
	}
	if res = run(t, tl, map[string]any{"question": "callers", "symbol": "Add", "format": "csv"}); !res.IsError || !strings.Contains(res.Output, `format "csv"`) {
		t.Fatalf("format csv = %s", res.Output)
	}
}

// A workspace without an index starts from the committed artifact and parses
// only what changed since; an unusable artifact is named and the index built
// from scratch.
func TestBootstrapFromCommittedArtifact(t *testing.T) {
	t.Parallel()
	files := func() map[string]string {
		return map[string]string{"calc/calc.go": calcSrc, "tools/util.py": "def helper():\n    return 1\n"}
	}
	_, first := workspace(t, files(), 0)
	if res, _ := call(t, first, map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add"}); res.IsError {
		t.Fatal(res.Output)
	}
	db, err := first.g.cfg.IndexPath(false)
	if err != nil {
		t.Fatal(err)
	}
	first.Stop() // the kept index holds the file open
	clone, tl := workspace(t, files(), 0)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a bound: the export reads a small index
	defer cancel()
	if _, err := artifact.Export(ctx, db, filepath.Join(clone, filepath.FromSlash(artifact.RelPath)), "test"); err != nil {
		t.Fatal(err)
	}
	write(t, clone, "tools/util.py", "def helper():\n    return 2\n")
	res, d := call(t, tl, map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add"})
	if res.IsError || !strings.Contains(d.Index.Bootstrap, "started from .albert-code/graph.zst") || d.Index.Extracted != 1 ||
		strings.Join(qnames(d.Items), " ") != "example.com/ws/calc.Double" {
		t.Fatalf("first question in the clone: index %+v\n%s", d.Index, res.Output)
	}

	broken, tl2 := workspace(t, files(), 0)
	if err := os.MkdirAll(filepath.Join(broken, ".albert-code"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, broken, artifact.RelPath, "not an artifact")
	res, d = call(t, tl2, map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add"})
	if res.IsError || !strings.Contains(d.Index.Bootstrap, "graph.zst") || !strings.Contains(d.Index.Bootstrap, "corrupt") ||
		!strings.Contains(d.Index.Bootstrap, "indexed from scratch") || len(d.Items) != 1 {
		t.Fatalf("a broken artifact: index %+v\n%s", d.Index, res.Output)
	}
}
