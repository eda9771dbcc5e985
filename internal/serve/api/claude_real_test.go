package api

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// realClaudeSetup serves the real Claude Code (pinned in
// ../adapter/testdata/clis, installed by .ci/run) against a fake model speaking
// Anthropic Messages. It fails, never skips, when Claude Code is missing.
func realClaudeSetup(t *testing.T, turns ...fakemodel.Turn) setup {
	t.Helper()
	bin, _ := filepath.Abs("../adapter/testdata/clis/node_modules/.bin/claude")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("Claude Code is not installed: run `npm ci --prefix internal/serve/adapter/testdata/clis` (%v)", err)
	}
	fm := fakemodel.NewTest(t, fakemodel.Script{Turns: turns})
	home := t.TempDir()
	return setup{
		// Sandboxed: these machines run the tests as root (see claude.Adapter.CheckRoot).
		backend: &claude.Adapter{Binary: bin, Sandboxed: true},
		baseEnv: []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "LANG=C.UTF-8",
			"ANTHROPIC_BASE_URL=" + fm.AnthropicURL(), "ANTHROPIC_API_KEY=fake",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"},
	}
}

// TestRunRealClaudeProviderError: Claude Code exits 1 on a provider 400; /run
// answers 400 with the provider's reason, not 500 "the agent exited with code 1".
func TestRunRealClaudeProviderError(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realClaudeSetup(t, fakemodel.AnthropicError(400, "invalid_request_error", "Output blocked by content filtering policy")))
	var out runResponse
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "hi", "noContinue": true}, &out)
	wantStatus(t, resp, body, http.StatusBadRequest)
	if !strings.Contains(out.ProviderError, "Output blocked by content filtering policy") || out.ErrorKind != backend.ErrorProvider || out.ExitCode != 1 {
		t.Errorf("answer %s", body)
	}
}

// TestRunRealClaudeAnswer: /run's text is Claude's final answer, without the
// narration before its tool call.
func TestRunRealClaudeAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realClaudeSetup(t,
		fakemodel.Turn{Text: []string{"Running a command."}, ToolCalls: []fakemodel.ToolCall{{Name: "Bash", Arguments: `{"command":"true","description":"x"}`}}},
		fakemodel.Turn{Text: []string{"DONE after tool"}},
	))
	var out runResponse
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "hi", "noContinue": true}, &out)
	wantStatus(t, resp, body, http.StatusOK)
	if out.Text != "DONE after tool" {
		t.Errorf("text %q, want the final answer alone", out.Text)
	}
}

// TestRunRealClaudeMaxTurns: Claude Code stopped by its own --max-turns (an
// operator's extraArgs) exits 1 with an error_max_turns result: /run answers that
// the agent failed on its own, with the subtype, and no providerError.
func TestRunRealClaudeMaxTurns(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realClaudeSetup(t,
		fakemodel.Turn{Text: []string{"Running."}, ToolCalls: []fakemodel.ToolCall{{Name: "Bash", Arguments: `{"command":"true","description":"x"}`}}},
		fakemodel.Turn{Text: []string{"never reached"}},
	))
	var out runResponse
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "hi", "noContinue": true, "extraArgs": []string{"--max-turns", "1"}}, &out)
	wantStatus(t, resp, body, http.StatusInternalServerError)
	if !strings.Contains(out.AgentError, "error_max_turns") || !strings.Contains(out.Detail, "error_max_turns") ||
		out.ErrorKind != backend.ErrorAgent || out.ProviderError != "" || out.ExitCode != 1 {
		t.Errorf("answer %s", body)
	}
}
