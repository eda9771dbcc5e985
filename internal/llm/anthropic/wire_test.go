package anthropic

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

// message_delta may carry totals for input and cache counts too; they replace
// message_start's, and absent ones keep them.
func TestUsageFromMessageDelta(t *testing.T) {
	body := `event: message_start
data: {"type":"message_start","message":{"model":"claude-x","usage":{"input_tokens":10,"cache_read_input_tokens":5,"cache_creation_input_tokens":7,"output_tokens":1}}}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"refusal"},"usage":{"output_tokens":20,"cache_creation_input_tokens":3}}

event: message_stop
data: {"type":"message_stop"}

`
	s := providertest.New(t, providertest.Answer{Body: body})
	resp, _, err := stream(t, newProvider(s), userRequest("Hi"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (llm.Usage{InputTokens: 18, OutputTokens: 20, CachedInputTokens: 5}); resp.Usage != want {
		t.Errorf("usage = %+v, want %+v", resp.Usage, want)
	}
	if resp.FinishReason != "content_filter" || resp.Message.Model != "claude-x" {
		t.Errorf("response = %+v", resp)
	}
}

func TestRetryAfterHeaders(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for name, tt := range map[string]struct {
		header map[string]string
		want   time.Duration
	}{
		"milliseconds first": {map[string]string{"Retry-After-Ms": "1500", "Retry-After": "9"}, 1500 * time.Millisecond},
		"HTTP date":          {map[string]string{"Retry-After": now.Add(30 * time.Second).Format(http.TimeFormat)}, 30 * time.Second},
		"past date":          {map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0},
		"garbage":            {map[string]string{"Retry-After": "soon"}, 0},
	} {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		if got := retryAfter(h, now); got != tt.want {
			t.Errorf("%s: %s, want %s", name, got, tt.want)
		}
	}
}

// A proxy's page in front of the API is shown as the message, so the user sees
// what answered.
func TestErrorBodyThatIsNotAnthropics(t *testing.T) {
	s := providertest.New(t, providertest.Answer{Status: http.StatusBadGateway, ContentType: "text/html",
		Body: "  <html>Bad gateway</html>\n"})
	_, _, err := stream(t, newProvider(s), userRequest("Hi"))
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 502 || apiErr.Message != "<html>Bad gateway</html>" {
		t.Errorf("err = %#v", err)
	}
}

// An error event of an unknown type, or with no error object, is a server error.
func TestUnknownErrorEventIsServerError(t *testing.T) {
	s := providertest.New(t, providertest.Answer{Body: "event: error\ndata: {\"type\":\"error\"}\n\n"})
	_, _, err := stream(t, newProvider(s), userRequest("Hi"))
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 500 || apiErr.Message != "api_error" || !llm.IsRetryable(err) {
		t.Errorf("err = %#v", err)
	}
}

// A thinking block whose visible text is empty still carries the thinking field,
// which the API requires.
func TestEmptyThinkingSentWithItsField(t *testing.T) {
	reasoning, sig := encodeThinking([]thinkingBlock{{text: "", signature: "sig"}})
	blocks := assistantBlocks(llm.Message{Role: llm.RoleAssistant, Reasoning: reasoning, ReasoningSignature: sig, Content: "ok"})
	if got := canonicalJSON(t, blocks[0]); got != `{"thinking":"","signature":"sig","type":"thinking"}` {
		t.Errorf("block = %s", got)
	}
}
