package openai

import (
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
)

// realClaudeServer serves /v1 with the real Claude Code (pinned in
// ../adapter/testdata/clis, installed by .ci/run) against a fake model speaking
// Anthropic Messages on 127.0.0.1. It fails, never skips, when Claude Code is missing.
func realClaudeServer(t *testing.T, turns ...fakemodel.Turn) *httptest.Server {
	t.Helper()
	bin, _ := filepath.Abs("../adapter/testdata/clis/node_modules/.bin/claude")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("Claude Code is not installed: run `npm ci --prefix internal/serve/adapter/testdata/clis` (%v)", err)
	}
	fm := fakemodel.NewTest(t, fakemodel.Script{Turns: turns})
	home := t.TempDir()
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "LANG=C.UTF-8",
		"ANTHROPIC_BASE_URL=" + fm.AnthropicURL(), "ANTHROPIC_API_KEY=fake",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}
	srv := httptest.NewServer(New(Options{
		// Sandboxed: these machines run the tests as root (claude.Adapter.CheckRoot).
		Backend:    &claude.Adapter{Binary: bin, Sandboxed: true},
		Runner:     runner.New(runner.Options{Grace: time.Second, TempParent: t.TempDir(), BaseEnv: env}),
		TempParent: t.TempDir(),
		// Judgement: Claude Code starts in about a second; a loaded CI machine under
		// -race may take many times that.
		Timeout:   time.Minute,
		Authorize: bearer(testToken),
		Logger:    slog.New(slog.DiscardHandler),
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRealClaudeOnV1: the answer is Claude's final message, without the narration
// before its tool call, whole and streamed; a provider's 400 (Claude Code exits 1)
// is a 400 with the provider's reason in OpenAI's error shape.
func TestRealClaudeOnV1(t *testing.T) {
	t.Parallel()
	toolTurns := func() []fakemodel.Turn {
		return []fakemodel.Turn{
			{Text: []string{"Running a command."}, ToolCalls: []fakemodel.ToolCall{{Name: "Bash", Arguments: `{"command":"true","description":"x"}`}}},
			{Text: []string{"DONE ", "after tool"}},
		}
	}
	t.Run("answer", func(t *testing.T) {
		t.Parallel()
		_, body := post(t, realClaudeServer(t, toolTurns()...), chatPath, hiBody)
		if got := at(decode(t, body), "choices", 0, "message", "content"); got != "DONE after tool" {
			t.Errorf("content %q, want the final answer alone: %s", got, body)
		}
	})
	t.Run("streamed", func(t *testing.T) {
		t.Parallel()
		resp, body := post(t, realClaudeServer(t, toolTurns()...), chatPath, `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`)
		var content strings.Builder
		for line := range strings.Lines(string(body)) {
			data, ok := strings.CutPrefix(strings.TrimSpace(line), "data: ")
			if !ok || data == "[DONE]" {
				continue
			}
			if c, ok := at(decode(t, []byte(data)), "choices", 0, "delta", "content").(string); ok {
				content.WriteString(c)
			}
		}
		if resp.StatusCode != 200 || content.String() != "DONE after tool" {
			t.Errorf("%d: streamed %q, want the final answer alone\n%s", resp.StatusCode, content.String(), body)
		}
	})
	t.Run("provider 400", func(t *testing.T) {
		t.Parallel()
		srv := realClaudeServer(t, fakemodel.AnthropicError(400, "invalid_request_error", "Output blocked by content filtering policy"))
		resp, body := post(t, srv, chatPath, hiBody)
		v := decode(t, body)
		msg, _ := at(v, "error", "message").(string)
		if resp.StatusCode != 400 || at(v, "error", "code") != "provider_refused" || !strings.Contains(msg, "Output blocked by content filtering policy") {
			t.Errorf("%d %s", resp.StatusCode, body)
		}
	})
}
