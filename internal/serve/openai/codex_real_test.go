package openai

import (
	"bufio"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/clitest"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/codex"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
)

// realCodexServer serves /v1 with the real Codex CLI (pinned in
// ../adapter/testdata/clis, installed by .ci/run) against a fake model on
// 127.0.0.1. It fails, never skips, when Node or Codex is missing.
func realCodexServer(t *testing.T, turns ...fakemodel.Turn) *httptest.Server {
	t.Helper()
	fm := fakemodel.NewTest(t, fakemodel.Script{Turns: turns})
	bin, env, _ := clitest.Codex(t, fm.URL())
	srv := httptest.NewServer(New(Options{
		Backend:    &codex.Adapter{Binary: bin},
		Runner:     runner.New(runner.Options{Grace: time.Second, TempParent: t.TempDir(), BaseEnv: env}),
		TempParent: t.TempDir(),
		// Judgement: codex starts in about a second; a loaded CI machine under -race
		// may take many times that.
		Timeout:   time.Minute,
		Authorize: bearer(testToken),
		Logger:    slog.New(slog.DiscardHandler),
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRealCodexProviderErrorsOnV1: codex exits 1 on a provider's refusal; /v1
// answers with the provider's status class and reason in OpenAI's error shape, not
// 500 "the agent exited with code 1".
func TestRealCodexProviderErrorsOnV1(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		turn         fakemodel.Turn
		status       int
		code, reason string
	}{
		{"400", fakemodel.OpenAIError(400, "Invalid schema for response_format: 'x' is not valid", "invalid_request_error", "invalid_json_schema"),
			400, "provider_refused", "Invalid schema for response_format: 'x' is not valid"},
		{"429", fakemodel.OpenAIError(429, "Rate limit reached", "requests", "rate_limit_exceeded"),
			429, "rate_limit_exceeded", "429 Too Many Requests"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := realCodexServer(t, tc.turn)
			resp, body := post(t, srv, chatPath, hiBody)
			v := decode(t, body)
			msg, _ := at(v, "error", "message").(string)
			if resp.StatusCode != tc.status || at(v, "error", "code") != tc.code || !strings.Contains(msg, tc.reason) || strings.Contains(msg, "exited") {
				t.Errorf("%d %s", resp.StatusCode, body)
			}
		})
	}
}

// TestRealCodexStreamOpensAtOnce: codex prints its answer only whole, so a
// streamed /v1 request gets its headers and a first comment before codex has
// anything to say (here the model waits 3 s before answering), then the answer.
func TestRealCodexStreamOpensAtOnce(t *testing.T) {
	t.Parallel()
	srv := realCodexServer(t, fakemodel.Turn{Text: []string{"Bonjour", " en flux."}, FirstByteDelay: 3 * time.Second})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+chatPath,
		strings.NewReader(`{"stream":true,"messages":[{"role":"user","content":"Salut"}]}`))
	req.Header.Set("Authorization", "Bearer "+testToken)
	start := time.Now()
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	var first []string
	for len(first) < 4 && sc.Scan() {
		first = append(first, sc.Text())
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the stream's first lines took %v: the model waits 3 s", took)
	}
	if resp.StatusCode != 200 || !strings.Contains(strings.Join(first, "\n"), ": the agent is working") {
		t.Errorf("status %d, first lines %q", resp.StatusCode, first)
	}
	var rest strings.Builder
	for sc.Scan() {
		rest.WriteString(sc.Text() + "\n")
	}
	if !strings.Contains(rest.String(), `"content":"Bonjour en flux."`) || !strings.Contains(rest.String(), "[DONE]") {
		t.Errorf("the answer did not follow: %s", rest.String())
	}
}

// TestRealCodexRetriesOnV1: a /v1 request starts codex on a fresh, ephemeral
// thread; a corrective retry (a response_format mismatch, an unmet tool_choice
// "required") restates the task in a new thread. Before, it resumed the ephemeral
// thread and codex answered "no rollout found for thread id" (a 500).
func TestRealCodexRetriesOnV1(t *testing.T) {
	t.Parallel()
	t.Run("response_format", func(t *testing.T) {
		t.Parallel()
		srv := realCodexServer(t, fakemodel.Turn{Text: []string{"Il fait beau à Lyon."}}, fakemodel.Turn{Text: []string{`{"city":"Lyon","temp":18}`}})
		resp, body := post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather?"}],`+citySchema+`}`)
		if resp.StatusCode != 200 || at(decode(t, body), "choices", 0, "message", "content") != `{"city":"Lyon","temp":18}` {
			t.Errorf("%d %s", resp.StatusCode, body)
		}
	})
	t.Run("tool_choice required", func(t *testing.T) {
		t.Parallel()
		srv := realCodexServer(t, fakemodel.Turn{Text: []string{"I think it is sunny."}},
			fakemodel.Turn{Text: []string{`{"tool_calls":[{"name":"get_weather","arguments":{"city":"Lyon"}}]}`}})
		resp, body := post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather?"}],`+weatherTools+`,"tool_choice":"required"}`)
		v := decode(t, body)
		if resp.StatusCode != 200 || at(v, "choices", 0, "finish_reason") != "tool_calls" ||
			at(v, "choices", 0, "message", "tool_calls", 0, "function", "name") != "get_weather" {
			t.Errorf("%d %s", resp.StatusCode, body)
		}
	})
}
