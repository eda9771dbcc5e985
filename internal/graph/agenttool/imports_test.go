package agenttool

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The graph engine stands alone: no package of internal/graph links in the agent
// (its loop, middlewares or environment) or a face. The agent's side adapts to
// the graph (agentenv builds code_graph and refreshes it after edits), never the
// reverse.
func TestGraphImportsNothingOfTheAgent(t *testing.T) {
	t.Parallel()
	const self = "github.com/etalab-ia/albert-code/internal/"
	forbidden := []string{"agent", "agentenv", "app", "tui", "headless", "acp", "chat", "serve"}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "list", "-deps", "-f", "{{.ImportPath}}", self+"graph/...").Output()
	if err != nil {
		t.Fatalf("go list -deps %sgraph/...: %v", self, err)
	}
	for _, p := range strings.Fields(string(out)) {
		rest, ok := strings.CutPrefix(p, self)
		if !ok {
			continue
		}
		for _, f := range forbidden {
			if rest == f || strings.HasPrefix(rest, f+"/") {
				t.Errorf("the graph packages depend on %s: the agent and the faces import the graph, not the reverse", p)
			}
		}
	}
}
