package openai

import (
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter"
)

func TestProviderErrorsKeepTheirReasonAndStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, message      string
		status             int
		code, retryAfter   string
		schema, streamBody bool
	}{
		{name: "refusal", message: `API Error: 400 {"error":{"message":"prompt is too long"}}`, status: 400, code: "provider_refused"},
		{name: "rate limit", message: "API Error: 429 rate limited, slow down", status: 429, code: "rate_limit_exceeded", retryAfter: "2"},
		{name: "provider down", message: "unexpected status 503 Service Unavailable: overloaded", status: 502, code: "provider_error"},
		{name: "server's key refused", message: "unexpected status 401 Unauthorized: bad key", status: 502, code: "provider_error"},
		{name: "no status quoted", message: "Your credit balance is too low", status: 400, code: "provider_refused"},
		{name: "with a schema", message: "API Error: 400 context too long", status: 400, code: "provider_refused", schema: true},
		{name: "streamed", message: "API Error: 429 slow down", status: 429, code: "rate_limit_exceeded", retryAfter: "2", streamBody: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, f := cliServerWith(t, "testdata/fake-jsonl.toml", jsonLine(map[string]string{"type": "error", "message": tc.message}))
			f.set(t, 1, "exit", "1") // the real CLIs exit 1 on a provider's error
			body := hiBody
			switch {
			case tc.schema:
				body = `{"messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_object"}}`
			case tc.streamBody:
				body = `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`
			}
			resp, data := post(t, srv, chatPath, body)
			v := decode(t, data)
			msg, _ := at(v, "error", "message").(string)
			if resp.StatusCode != tc.status || at(v, "error", "code") != tc.code || !strings.Contains(msg, tc.message) || strings.Contains(msg, "exited") {
				t.Errorf("%d %s", resp.StatusCode, data)
			}
			if got := resp.Header.Get("Retry-After"); got != tc.retryAfter {
				t.Errorf("Retry-After %q", got)
			}
			if n := f.runs(t); n != 1 {
				t.Errorf("a provider's error was retried: %d runs", n)
			}
		})
	}
}

func TestStatusInProviderMessages(t *testing.T) {
	t.Parallel()
	for msg, want := range map[string]int{
		"API Error: 429 {}":                        429,
		"unexpected status 400 Bad Request: x":     400,
		`{"error":{"status": 503}}`:                503,
		"http 502 bad gateway":                     502,
		"status_code=401":                          401,
		"the answer was 400 words long":            0,
		"exceeded your quota, see billing":         0,
		"Error: stream disconnected before finish": 0,
	} {
		if got := statusIn(msg); got != want {
			t.Errorf("statusIn(%q) = %d, want %d", msg, got, want)
		}
	}
}

func TestMissingAgentIs127(t *testing.T) {
	t.Parallel()
	a, err := adapter.Resolve("testdata/fake-chat.toml", "/nonexistent/albert-code-test-agent")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(Options{Backend: a, TempParent: t.TempDir(), Authorize: bearer(testToken), Logger: slog.New(slog.DiscardHandler)}))
	t.Cleanup(srv.Close)
	for _, body := range []string{hiBody, `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`,
		`{"messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_object"}}`} {
		resp, data := post(t, srv, chatPath, body)
		v := decode(t, data)
		if resp.StatusCode != 500 || at(v, "error", "exit_code") != 127.0 || at(v, "error", "code") != "agent_not_found" ||
			!strings.Contains(at(v, "error", "message").(string), "albert-code-test-agent") {
			t.Errorf("%s: %d %s", body, resp.StatusCode, data)
		}
	}
}

func TestAgentCrashCarriesItsExitCode(t *testing.T) {
	t.Parallel()
	srv, f := cliServer(t, "")
	f.set(t, 1, "exit", "3")
	f.set(t, 1, "stderr", "segfault in the agent")
	resp, data := post(t, srv, chatPath, hiBody)
	v := decode(t, data)
	if resp.StatusCode != 500 || at(v, "error", "exit_code") != 3.0 || !strings.Contains(at(v, "error", "message").(string), "segfault in the agent") {
		t.Errorf("%d %s", resp.StatusCode, data)
	}
}

func jsonLine(v any) string { return jsonOf(v) + "\n" }
