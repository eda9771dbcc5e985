package fakemodel

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestErrorAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		turn       Turn
		stream     bool
		wantStatus int
		wantBody   string
		wantHeader map[string]string
	}{
		{
			name:       "Albert overload with Retry-After, even when streaming",
			turn:       AlbertError(503, "Model is too busy, please try again later.").WithHeader("Retry-After", "10"),
			stream:     true,
			wantStatus: 503,
			wantBody:   `{"detail":"Model is too busy, please try again later."}`,
			wantHeader: map[string]string{"Retry-After": "10", "Content-Type": "application/json"},
		},
		{
			name:       "OpenAI rate limit",
			turn:       OpenAIError(429, "Rate limit reached", "requests", "rate_limit_exceeded").WithHeader("retry-after-ms", "250"),
			wantStatus: 429,
			wantBody:   `{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached","param":null,"type":"requests"}}`,
			wantHeader: map[string]string{"Retry-After-Ms": "250"},
		},
		{
			name:       "OpenAI error without code sends null",
			turn:       OpenAIError(401, "bad key", "invalid_request_error", ""),
			wantStatus: 401,
			wantBody:   `{"error":{"code":null,"message":"bad key","param":null,"type":"invalid_request_error"}}`,
		},
		{
			name:       "raw body with overridden content type",
			turn:       ErrorTurn(502, "<html>Bad Gateway</html>").WithHeader("Content-Type", "text/html"),
			wantStatus: 502,
			wantBody:   "<html>Bad Gateway</html>",
			wantHeader: map[string]string{"Content-Type": "text/html"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewTest(t, Script{Turns: []Turn{tt.turn}})
			resp := post(t, t.Context(), s.URL(), chatBody(tt.stream, false))
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.wantStatus || string(body) != tt.wantBody {
				t.Errorf("got %d %s, want %d %s", resp.StatusCode, body, tt.wantStatus, tt.wantBody)
			}
			for k, v := range tt.wantHeader {
				if got := resp.Header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

func TestWithHeaderDoesNotAlias(t *testing.T) {
	t.Parallel()
	base := AlbertError(429, "x").WithHeader("A", "1")
	derived := base.WithHeader("B", "2")
	if _, ok := base.Headers["B"]; ok || len(derived.Headers) != 2 {
		t.Errorf("base %v derived %v: WithHeader must copy", base.Headers, derived.Headers)
	}
}

func TestScriptExhausted(t *testing.T) {
	t.Parallel()
	s := NewTest(t, Script{Turns: []Turn{{Text: []string{"only"}}}})
	first := post(t, t.Context(), s.URL(), chatBody(false, false))
	first.Body.Close()
	if first.StatusCode != 200 {
		t.Fatalf("first request: %s", first.Status)
	}
	resp := post(t, t.Context(), s.URL(), chatBody(true, false))
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 500 || !strings.Contains(string(body), `"message":"fake model: script exhausted after 1 requests"`) {
		t.Errorf("got %d %s, want 500 naming the exhausted script", resp.StatusCode, body)
	}
	if resp.Header.Get("x-should-retry") != "false" {
		t.Errorf("x-should-retry = %q, want false so SDKs do not retry", resp.Header.Get("x-should-retry"))
	}
}

func TestRoutes(t *testing.T) {
	t.Parallel()
	s := NewTest(t, Script{Models: []Model{{ID: "qwen3-coder", Aliases: []string{"openweight-code"}, MaxContextLength: 262144}}})
	base := strings.TrimSuffix(s.URL(), "/v1")
	tests := []struct {
		method, path string
		wantStatus   int
		wantBody     string
	}{
		{"GET", "/v1/models", 200, `"aliases":["openweight-code"]`},
		{"GET", "/models", 200, `"id":"qwen3-coder"`},
		{"GET", "/v1/models", 200, `"max_context_length":262144`},
		{"GET", "/v1/nope", 404, `"message":"fake model: no route for GET /v1/nope"`},
		{"GET", "/v1/chat/completions", 405, `"code":"method_not_allowed"`},
		{"POST", "/v1/models", 405, `"code":"method_not_allowed"`},
	}
	for _, tt := range tests {
		req, _ := http.NewRequestWithContext(t.Context(), tt.method, base+tt.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.wantStatus || !strings.Contains(string(body), tt.wantBody) {
			t.Errorf("%s %s = %d %s, want %d containing %s", tt.method, tt.path, resp.StatusCode, body, tt.wantStatus, tt.wantBody)
		}
	}
}
