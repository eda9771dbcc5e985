package anthropic

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

func TestErrorsBecomeAPIErrors(t *testing.T) {
	tests := []struct {
		name       string
		answer     providertest.Answer
		status     int
		message    string
		retryAfter time.Duration
		retryable  bool
		logged     bool
	}{
		{"overloaded", providertest.Error(529,
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`, nil),
			529, "Overloaded", 0, true, true},
		{"rate limited", providertest.Error(http.StatusTooManyRequests,
			`{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"},"request_id":"req_1"}`,
			map[string]string{"Retry-After": "7"}),
			429, "Number of request tokens has exceeded your per-minute rate limit", 7 * time.Second, true, true},
		{"invalid request", providertest.Error(http.StatusBadRequest,
			`{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate"},"request_id":"req_2"}`, nil),
			400, "messages: roles must alternate", 0, false, true},
		{"error event inside the stream", providertest.SSE("testdata/overloaded_midstream.sse"),
			529, "Overloaded", 0, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := providertest.New(t, tt.answer)
			records := providertest.CaptureLog(t)
			_, _, err := stream(t, newProvider(s), userRequest("Hi"))
			var apiErr *llm.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v, want *llm.APIError", err)
			}
			if apiErr.Status != tt.status || apiErr.Message != tt.message || apiErr.RetryAfter != tt.retryAfter ||
				llm.IsRetryable(err) != tt.retryable || apiErr.URL != s.URL+"/v1/messages" {
				t.Errorf("err = %+v", apiErr)
			}
			if logged := providertest.ErrorLogged(records(), tt.status); logged != tt.logged {
				t.Errorf("error body logged = %v, want %v", logged, tt.logged)
			}
		})
	}
}

func TestBrokenStreamsAreUnreachable(t *testing.T) {
	for _, fixture := range []string{"malformed.sse", "truncated.sse", "orphan_delta.sse"} {
		t.Run(fixture, func(t *testing.T) {
			s := providertest.New(t, providertest.SSE("testdata/"+fixture))
			_, _, err := stream(t, newProvider(s), userRequest("Hi"))
			if !errors.Is(err, llm.ErrUnreachable) {
				t.Errorf("err = %v, want ErrUnreachable", err)
			}
		})
	}
}

func TestSilentServerTimesOut(t *testing.T) {
	release := make(chan struct{})
	s := providertest.New(t)
	s.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release })
	defer close(release)
	p := New(Options{BaseURL: s.URL, APIKey: "k", Timeout: 50 * time.Millisecond})
	_, _, err := stream(t, p, userRequest("Hi"))
	if !errors.Is(err, llm.ErrUnreachable) {
		t.Errorf("err = %v, want ErrUnreachable", err)
	}
}

func TestCancelledCallIsNotUnreachable(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/text.sse"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newProvider(s).Stream(ctx, userRequest("Hi"), nil)
	if !errors.Is(err, context.Canceled) || errors.Is(err, llm.ErrUnreachable) {
		t.Errorf("err = %v, want context.Canceled alone", err)
	}
}

func TestHeadersAndUnreachableServer(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/text.sse"))
	p := New(Options{BaseURL: s.URL, APIKey: "k", UserAgent: "albert-code/9.9",
		ExtraHeaders: map[string]string{"Anthropic-Beta": "interleaved-thinking-2025-05-14"}})
	if _, _, err := stream(t, p, userRequest("Hi")); err != nil {
		t.Fatal(err)
	}
	h := s.Requests()[0].Header
	if h.Get("User-Agent") != "albert-code/9.9" || h.Get("Anthropic-Beta") != "interleaved-thinking-2025-05-14" {
		t.Errorf("headers = %v", h)
	}
	s.Close()
	if _, _, err := stream(t, p, userRequest("Hi")); !errors.Is(err, llm.ErrUnreachable) {
		t.Errorf("closed server: err = %v, want ErrUnreachable", err)
	}
}

// A proxy that answers 200 with a JSON page instead of a stream is a failure to
// reach the model, not an empty answer.
func TestNonStreamAnswerIsUnreachable(t *testing.T) {
	s := providertest.New(t, providertest.Answer{ContentType: "application/json",
		Body: `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"Hi"}]}`})
	_, _, err := stream(t, newProvider(s), userRequest("Hi"))
	if !errors.Is(err, llm.ErrUnreachable) {
		t.Errorf("err = %v, want ErrUnreachable", err)
	}
}
