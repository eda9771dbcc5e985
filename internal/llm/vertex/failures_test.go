package vertex

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

func TestErrors(t *testing.T) {
	tests := []struct {
		name       string
		answer     providertest.Answer
		status     int
		message    string
		retryAfter time.Duration
		retryable  bool
		logged     bool
	}{
		{"quota", providertest.Error(429, `{"error": {"code": 429,"message": "You exceeded your current quota, please check your plan and billing details.","status": "RESOURCE_EXHAUSTED","details": [{"@type": "type.googleapis.com/google.rpc.QuotaFailure","violations": [{"quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]},{"@type": "type.googleapis.com/google.rpc.RetryInfo","retryDelay": "37s"}]}}`, nil),
			429, "You exceeded your current quota, please check your plan and billing details.", 37 * time.Second, true, true},
		{"bad request", providertest.Error(400, `{"error": {"code": 400,"message": "Function call is missing a thought_signature in functionCall parts.","status": "INVALID_ARGUMENT"}}`, nil),
			400, "Function call is missing a thought_signature in functionCall parts.", 0, false, true},
		{"error inside the stream", providertest.SSE("testdata/error_midstream.sse"),
			503, "The model is overloaded. Please try again later.", 0, true, true},
		{"blocked prompt", providertest.SSE("testdata/blocked.sse"), 400, "the prompt was blocked: SAFETY", 0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := providertest.New(t, tt.answer)
			records := providertest.CaptureLog(t)
			_, _, err := stream(t, newProvider(s), hello())
			var apiErr *llm.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v, want *llm.APIError", err)
			}
			if apiErr.Status != tt.status || apiErr.Message != tt.message || apiErr.RetryAfter != tt.retryAfter ||
				llm.IsRetryable(err) != tt.retryable || apiErr.URL != s.URL {
				t.Errorf("err = %+v", apiErr)
			}
			if logged := providertest.ErrorLogged(records(), tt.status); logged != tt.logged {
				t.Errorf("error body logged = %v, want %v", logged, tt.logged)
			}
		})
	}
}

func TestSafetyStopIsContentFilter(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/safety.sse"))
	resp, _, err := stream(t, newProvider(s), hello())
	if err != nil {
		t.Fatal(err)
	}
	if resp.FinishReason != "content_filter" || resp.Message.Content != "I can" {
		t.Errorf("response = %+v", resp)
	}
}

func TestBrokenStreamsAreUnreachable(t *testing.T) {
	for _, fixture := range []string{"malformed.sse", "truncated.sse"} {
		t.Run(fixture, func(t *testing.T) {
			s := providertest.New(t, providertest.SSE("testdata/"+fixture))
			_, _, err := stream(t, newProvider(s), hello())
			if !errors.Is(err, llm.ErrUnreachable) || !strings.Contains(err.Error(), s.URL) {
				t.Errorf("err = %v, want ErrUnreachable naming the server", err)
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
	if _, _, err := stream(t, p, hello()); !errors.Is(err, llm.ErrUnreachable) {
		t.Errorf("err = %v, want ErrUnreachable", err)
	}
}

func TestNoCredentialsIsAClearError(t *testing.T) {
	_, _, err := stream(t, New(Options{}), hello())
	if err == nil || !strings.Contains(err.Error(), "API key") {
		t.Errorf("err = %v", err)
	}
}

func TestHeadersAndUnreachableServer(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/text.sse"))
	p := New(Options{BaseURL: s.URL, APIKey: "k", UserAgent: "albert-code/9.9",
		ExtraHeaders: map[string]string{"X-Tenant": "dinum"}, Timeout: testTimeout})
	if _, _, err := stream(t, p, hello()); err != nil {
		t.Fatal(err)
	}
	h := s.Requests()[0].Header
	if !strings.Contains(h.Get("User-Agent"), "albert-code/9.9") || h.Get("X-Tenant") != "dinum" {
		t.Errorf("headers = %v", h)
	}
	s.Close()
	if _, _, err := stream(t, p, hello()); !errors.Is(err, llm.ErrUnreachable) {
		t.Errorf("closed server: err = %v, want ErrUnreachable", err)
	}
}

func TestNonStreamAnswerIsUnreachable(t *testing.T) {
	s := providertest.New(t, providertest.Answer{ContentType: "application/json",
		Body: `{"candidates": [{"content": {"parts": [{"text": "Hi"}],"role": "model"},"finishReason": "STOP","index": 0}]}`})
	if _, _, err := stream(t, newProvider(s), hello()); !errors.Is(err, llm.ErrUnreachable) {
		t.Errorf("err = %v, want ErrUnreachable", err)
	}
}
