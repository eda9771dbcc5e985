package openaicompat

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

func TestHTTPErrors(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	long := `{"detail":"` + strings.Repeat("x", 900) + `"}`
	tests := []struct {
		name        string
		status      int
		header      map[string]string
		body        string
		wantMessage string
		wantRetry   time.Duration
		wantBody    string
	}{
		{
			name:        "FastAPI detail string with Retry-After seconds",
			status:      429,
			header:      map[string]string{"Retry-After": "12"},
			body:        `{"detail":"Rate limit exceeded: 50 requests per minute"}`,
			wantMessage: "Rate limit exceeded: 50 requests per minute",
			wantRetry:   12 * time.Second,
		},
		{
			name:        "Retry-After as an HTTP date",
			status:      503,
			header:      map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)},
			body:        `{"detail":"Model is loading"}`,
			wantMessage: "Model is loading",
			wantRetry:   90 * time.Second,
		},
		{
			name:        "Retry-After date in the past means no wait",
			status:      503,
			header:      map[string]string{"Retry-After": now.Add(-time.Hour).Format(http.TimeFormat)},
			body:        `{"detail":"busy"}`,
			wantMessage: "busy",
		},
		{
			name:        "retry-after-ms wins over Retry-After",
			status:      429,
			header:      map[string]string{"Retry-After": "2", "Retry-After-Ms": "1500"},
			body:        `{"error":{"message":"Rate limit reached for gpt-4.1","type":"requests","code":"rate_limit_exceeded"}}`,
			wantMessage: "Rate limit reached for gpt-4.1",
			wantRetry:   1500 * time.Millisecond,
		},
		{
			name:        "FastAPI validation errors",
			status:      422,
			body:        `{"detail":[{"type":"missing","loc":["body","messages",0,"content"],"msg":"Field required","input":{}},{"loc":["body","model"],"msg":"Input should be a valid string"}]}`,
			wantMessage: "body.messages.0.content: Field required; body.model: Input should be a valid string",
		},
		{
			name:        "OpenAI error object",
			status:      400,
			body:        `{"error":{"message":"This model's maximum context length is 32768 tokens.","type":"BadRequestError","param":null,"code":400},"object":"error"}`,
			wantMessage: "This model's maximum context length is 32768 tokens.",
		},
		{
			name:        "vLLM flat error",
			status:      404,
			body:        `{"object":"error","message":"The model ` + "`nope`" + ` does not exist.","type":"NotFoundError","code":404}`,
			wantMessage: "The model `nope` does not exist.",
		},
		{
			name:        "plain text from a proxy",
			status:      502,
			body:        "Bad Gateway\n",
			wantMessage: "Bad Gateway",
		},
		{
			name:        "long body is cut for Body",
			status:      401,
			body:        long,
			wantMessage: strings.Repeat("x", 900),
			wantBody:    long[:500],
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tc.header {
					w.Header().Set(k, v)
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			})
			p := s.provider(Options{})
			p.now = func() time.Time { return now }
			events, resp, err := collect(t, p, llm.Request{Model: "m"})
			var apiErr *llm.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v (%T), resp %v; want *llm.APIError", err, err, resp)
			}
			wantBody := tc.wantBody
			if wantBody == "" {
				wantBody = tc.body
			}
			wantURL := s.URL + "/v1/chat/completions"
			if apiErr.Status != tc.status || apiErr.Message != tc.wantMessage || apiErr.RetryAfter != tc.wantRetry ||
				apiErr.Body != wantBody || apiErr.URL != wantURL {
				t.Errorf("APIError = %+v\nwant status %d message %q retry %s body %q url %s",
					apiErr, tc.status, tc.wantMessage, tc.wantRetry, wantBody, wantURL)
			}
			if errors.Is(err, llm.ErrUnreachable) || len(events) != 0 {
				t.Errorf("an HTTP error is not a network failure (%v) and streams nothing (%v)", err, events)
			}
			if n := len(s.requests()); n != 1 {
				t.Errorf("server saw %d requests: the SDK must not retry", n)
			}
		})
	}
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	base := "http://" + addr + "/v1"
	_, _, err = collect(t, New(Options{BaseURL: base}), llm.Request{Model: "m"})
	if !errors.Is(err, llm.ErrUnreachable) || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("err = %v; want ErrUnreachable wrapping ECONNREFUSED", err)
	}
	if !strings.Contains(err.Error(), base+"/chat/completions") {
		t.Errorf("err = %q; want it to name %s", err, base)
	}
	if !llm.IsRetryable(err) {
		t.Errorf("a refused connection should be retryable")
	}
}

// TestStreamBreaks covers streams that end badly after a 200.
func TestStreamBreaks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		handler http.HandlerFunc
		// wantStatus is the APIError status, 0 for an ErrUnreachable.
		wantStatus int
		wantErr    string
	}{
		{
			name: "connection dropped mid-stream",
			handler: func(w http.ResponseWriter, r *http.Request) {
				startSSE(w)
				writeEvent(w, textChunk("partial"))
				conn, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
					_ = conn.Close()
				}
			},
			wantErr: "stream broken",
		},
		{
			name:    "clean end before any finish reason",
			handler: sseHandler(textChunk("partial")),
			wantErr: "stream ended before the model finished",
		},
		{
			name: "200 with JSON instead of a stream",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"id":"x","choices":[]}`))
			},
			wantErr: `no stream events (Content-Type "application/json")`,
		},
		{
			name:       "error event inside the stream",
			handler:    sseHandler(textChunk("partial"), `{"error":{"object":"error","message":"Engine died","type":"InternalServerError","code":503}}`),
			wantStatus: 503,
			wantErr:    "Engine died",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, tc.handler)
			_, resp, err := collect(t, s.provider(Options{}), llm.Request{Model: "m"})
			if err == nil {
				t.Fatalf("Stream = %+v, want an error", resp)
			}
			if !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), s.URL) {
				t.Errorf("err = %q; want %q and the URL", err, tc.wantErr)
			}
			var apiErr *llm.APIError
			if tc.wantStatus == 0 && !errors.Is(err, llm.ErrUnreachable) {
				t.Errorf("err = %v; want ErrUnreachable", err)
			}
			if tc.wantStatus != 0 && (!errors.As(err, &apiErr) || apiErr.Status != tc.wantStatus) {
				t.Errorf("err = %v; want APIError %d", err, tc.wantStatus)
			}
		})
	}
}

func TestCancelMidStream(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		writeEvent(w, textChunk("thinking about it"))
		select { // a server that goes on generating slowly
		case <-r.Context().Done():
		case <-release:
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	start := time.Now()
	_, err := s.provider(Options{}).Stream(ctx, llm.Request{Model: "m"}, func(e llm.StreamEvent) {
		if e.Kind == llm.EventTextDelta {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || errors.Is(err, llm.ErrUnreachable) || llm.IsRetryable(err) {
		t.Fatalf("err = %v; want context.Canceled, not ErrUnreachable", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancel took %s", d)
	}
}

func TestIdleTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		// Four chunks 60 ms apart outlast the 150 ms timeout only if each one
		// resets it.
		for _, s := range []string{"a", "b", "c", "d"} {
			writeEvent(w, textChunk(s))
			time.Sleep(60 * time.Millisecond)
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	events, _, err := collect(t, s.provider(Options{Timeout: 150 * time.Millisecond}), llm.Request{Model: "m"})
	if !errors.Is(err, llm.ErrUnreachable) || !strings.Contains(err.Error(), "no data for 150ms") {
		t.Fatalf("err = %v; want ErrUnreachable after 150ms of silence", err)
	}
	if got := textOf(events, llm.EventTextDelta); got != "abcd" {
		t.Errorf("streamed %q before the silence, want abcd", got)
	}
}
