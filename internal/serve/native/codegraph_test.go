package native

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// A run's agent has code_graph over its workspace, with no hook from the app:
// the first question indexes the module in the workspace's .albert-code/graph.
func TestRunAsksTheCodeGraph(t *testing.T) {
	t.Parallel()
	w := newWorld(t,
		fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{ID: "g1", Name: "code_graph",
			Arguments: args(map[string]string{"question": "callers", "symbol": "example.com/ws/calc.Add"})}}},
		text("done"))
	for name, src := range map[string]string{
		"go.mod":       "module example.com/ws\n\ngo 1.22\n",
		"calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Double(x int) int { return Add(x, x) }\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(w.ws, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(w.ws, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var ev events
	res, err := w.native.Run(t.Context(), w.request("who calls Add?"), ev.emit)
	if err != nil || res.Text != "done" {
		t.Fatalf("%v %+v", err, res)
	}
	result := ev.of(backend.EventToolResult)
	if len(result) != 1 || result[0].Tool.IsError || !strings.Contains(result[0].Tool.Output, "calc.Double") {
		t.Fatalf("code_graph's result: %+v", result)
	}
	if _, err := os.Stat(filepath.Join(w.ws, ".albert-code", "graph", "graph.db")); err != nil {
		t.Errorf("the index is not in the workspace: %v", err)
	}
}
