package claude_test

import (
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// TestRealClaudeMaxTurnsIsTheAgentsFailure: Claude Code stopped by its own
// --max-turns (an operator's extra argument) exits 1 with an error_max_turns
// result: the run reports the agent's own failure with the subtype, not the
// provider's.
func TestRealClaudeMaxTurnsIsTheAgentsFailure(t *testing.T) {
	t.Parallel()
	rc := newRealClaude(t,
		fakemodel.Turn{Text: []string{"Running."}, ToolCalls: []fakemodel.ToolCall{bashCall("toolu_1", "echo hi")}},
		fakemodel.Turn{Text: []string{"never reached"}},
	)
	req := rc.request("Run echo hi.")
	req.ExtraArgs = []string{"--max-turns", "1"}
	res, evs, err := rc.runAny(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	want := "claude stopped: error_max_turns: Reached maximum number of turns (1)"
	if res.AgentError != want || res.ErrorKind != backend.ErrorAgent || res.ProviderError != "" || res.ExitCode != 1 {
		t.Fatalf("agent error %q kind %q, provider error %q, exit %d; want %q\nstdout: %.3000s",
			res.AgentError, res.ErrorKind, res.ProviderError, res.ExitCode, want, res.Stdout)
	}
	var sawError bool
	for _, e := range evs {
		sawError = sawError || (e.Kind == backend.EventError && e.Text == want && e.ErrorKind == backend.ErrorAgent)
	}
	if !sawError {
		t.Errorf("no error event of kind agent in %v", kinds(evs))
	}
}
