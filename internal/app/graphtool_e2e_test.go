package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// TestAgentAsksTheCodeGraph: the model calls code_graph on a Go module in the
// workspace; the agent indexes it on the way (inside the workspace, in an index that
// ignores itself) and sends back the exact callers.
func TestAgentAsksTheCodeGraph(t *testing.T) {
	t.Parallel()
	h := newHarness(t,
		calls(fakemodel.ToolCall{ID: "g1", Name: "code_graph",
			Arguments: args(map[string]any{"question": "callers", "symbol": "example.com/ws/calc.Add"})}),
		text("Double calls Add."),
	)
	h.writeFile("go.mod", "module example.com/ws\n\ngo 1.22\n")
	h.writeFile("calc/calc.go", "package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Double(x int) int { return Add(x, x) }\n")
	r := h.run("-p", "--output", "json", "who calls Add?")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	res := h.toolResult(1, "g1")
	var ans struct {
		Certainty string `json:"certainty"`
		Items     []struct {
			QName string `json:"qualified_name"`
			File  string `json:"file"`
			Line  int    `json:"line"`
		} `json:"items"`
		Index struct {
			Status string `json:"status"`
		} `json:"index"`
	}
	if err := json.Unmarshal([]byte(res), &ans); err != nil {
		t.Fatalf("tool result is not the JSON answer (%v):\n%s", err, res)
	}
	if ans.Certainty != "exact" || len(ans.Items) != 1 || ans.Items[0].QName != "example.com/ws/calc.Double" ||
		ans.Items[0].File != "calc/calc.go" || ans.Items[0].Line != 5 || ans.Index.Status != "indexed" {
		t.Fatalf("answer = %+v\n%s", ans, res)
	}
	if _, err := os.Stat(filepath.Join(h.work, ".albert-code", "graph", "graph.db")); err != nil {
		t.Errorf("the index is not where `albert-code graph` looks for it: %v", err)
	}
	if spec := toolSpec(t, h, "code_graph"); !strings.Contains(spec, `"enum"`) {
		t.Errorf("code_graph's schema lacks the question enum: %s", spec)
	}
}

// toolSpec is the JSON of the tool named name in the first request's tools.
func toolSpec(t *testing.T, h *harness, name string) string {
	t.Helper()
	tools, _ := h.srv.Requests()[0].JSON["tools"].([]any)
	for _, raw := range tools {
		fn, _ := raw.(map[string]any)["function"].(map[string]any)
		if fn["name"] == name {
			b, _ := json.Marshal(fn)
			return string(b)
		}
	}
	t.Fatalf("the agent did not offer %s to the model", name)
	return ""
}
