package mistral

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

const testTimeout = 10 * time.Second

func newProvider(s *providertest.Server) *Provider {
	return New(Options{BaseURL: s.URL + "/v1", APIKey: "mistral-key", Timeout: testTimeout})
}

func stream(t *testing.T, p llm.Provider, req llm.Request) (*llm.Response, []llm.StreamEvent, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	var events []llm.StreamEvent
	resp, err := p.Stream(ctx, req, func(e llm.StreamEvent) { events = append(events, e) })
	return resp, events, err
}

func hello() llm.Request {
	return llm.Request{Model: "mistral-small-latest", Messages: []llm.Message{{Role: llm.RoleUser, Content: "Salut"}}}
}

func TestStreamText(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/text.sse"))
	resp, _, err := stream(t, newProvider(s), hello())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "Bonjour !" || resp.FinishReason != "stop" ||
		resp.Usage != (llm.Usage{InputTokens: 10, OutputTokens: 4}) {
		t.Errorf("response = %+v", resp)
	}
	r := s.Requests()[0]
	body := r.JSON(t)
	if r.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer mistral-key" {
		t.Errorf("request %s %v", r.Path, r.Header)
	}
	// Mistral refuses unknown fields with a 422, stream_options among them.
	if _, ok := body["stream_options"]; ok || body["stream"] != true {
		t.Errorf("body = %s", r.Raw)
	}
}

var mistralIDPattern = regexp.MustCompile(`^[a-zA-Z0-9]{9}$`)

// A history from other providers is sent with ids Mistral accepts, calls and
// results alike, and the same ids each time it is sent.
func TestRequestRewritesForeignHistory(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/text.sse"), providertest.SSE("testdata/text.sse"))
	p := newProvider(s)
	req := llm.Request{Model: "mistral-large-latest", Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "Be brief."},
		{Role: llm.RoleUser, Content: "Look"},
		{Role: llm.RoleAssistant, Reasoning: "thinking", ReasoningSignature: "anthropic:[]", ToolCalls: []llm.ToolCall{
			{ID: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", Name: "read_file", Arguments: `{"path":"a"}`},
			{ID: "call_Zx9", Name: "grep", Arguments: `{}`},
			{ID: "D681PevKs", Name: "ls", Arguments: `{}`},
		}},
		{Role: llm.RoleTool, ToolCallID: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", Content: "A"},
		{Role: llm.RoleTool, ToolCallID: "call_Zx9", Content: "B"},
		{Role: llm.RoleTool, ToolCallID: "D681PevKs", Content: "C"},
		{Role: llm.RoleAssistant, Content: "The answer starts"},
	}, Tools: []llm.ToolSpec{{Name: "read_file"}}, ToolChoice: llm.ToolChoice{Mode: llm.ToolChoiceRequired}}
	for range 2 {
		if _, _, err := stream(t, p, req); err != nil {
			t.Fatal(err)
		}
	}
	reqs := s.Requests()
	if string(reqs[0].Raw) != string(reqs[1].Raw) {
		t.Errorf("the same history was sent two ways:\n%s\n%s", reqs[0].Raw, reqs[1].Raw)
	}
	body := reqs[0].JSON(t)
	if body["tool_choice"] != "any" {
		t.Errorf("tool_choice = %v, want any", body["tool_choice"])
	}
	msgs := body["messages"].([]any)
	assistant := msgs[2].(map[string]any)
	if _, ok := assistant["reasoning_content"]; ok {
		t.Errorf("reasoning_content sent: %v", assistant)
	}
	calls := assistant["tool_calls"].([]any)
	var callIDs []string
	for _, c := range calls {
		id := c.(map[string]any)["id"].(string)
		if !mistralIDPattern.MatchString(id) {
			t.Errorf("call id %q does not fit Mistral's rule", id)
		}
		callIDs = append(callIDs, id)
	}
	if callIDs[2] != "D681PevKs" || callIDs[0] == callIDs[1] {
		t.Errorf("call ids = %v", callIDs)
	}
	wantNames := []string{"read_file", "grep", "ls"}
	for i := range 3 {
		result := msgs[3+i].(map[string]any)
		if result["tool_call_id"] != callIDs[i] || result["name"] != wantNames[i] {
			t.Errorf("result %d = %v, want id %s name %s", i, result, callIDs[i], wantNames[i])
		}
	}
	last := msgs[6].(map[string]any)
	if last["prefix"] != true || last["content"] != "The answer starts" {
		t.Errorf("trailing assistant = %v, want prefix true", last)
	}
	if _, ok := assistant["prefix"]; ok {
		t.Errorf("prefix set on an assistant message that is not last")
	}
}

func TestToolCallsWithObjectArguments(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/tool_calls.sse"))
	resp, _, err := stream(t, newProvider(s), hello())
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.ToolCall{
		{ID: "D681PevKs", Name: "read_file", Arguments: `{"path": "main.go"}`},
		{ID: "b2MfHmz7Q", Name: "grep", Arguments: `{"glob":"*.go","pattern":"func <T>"}`},
	}
	if !reflect.DeepEqual(resp.Message.ToolCalls, want) || resp.FinishReason != "tool_calls" {
		t.Errorf("calls = %+v finish %q, want %+v", resp.Message.ToolCalls, resp.FinishReason, want)
	}
}

func TestThinkingChunksBecomeReasoning(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/thinking.sse"))
	resp, events, err := stream(t, newProvider(s), hello())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Reasoning != "The user greets me." || resp.Message.Content != "Hello." || resp.FinishReason != "length" {
		t.Errorf("response = %+v", resp)
	}
	if len(events) == 0 || events[0].Kind != llm.EventReasoningDelta {
		t.Errorf("events = %+v, want reasoning first", events)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name      string
		answer    providertest.Answer
		status    int
		message   string
		retryable bool
	}{
		{"nested validation error", providertest.Error(422,
			`{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options","include_usage"],"msg":"Extra inputs are not permitted","input":true}]},"type":"invalid_request_error","param":null,"code":null}`, nil),
			422, "body.stream_options.include_usage: Extra inputs are not permitted", false},
		{"bad tool call id", providertest.Error(400,
			`{"object":"error","message":"Tool call id was call_1 but must be a-z, A-Z, 0-9, with a length of 9.","type":"invalid_request_message_order","param":null,"code":"3280"}`, nil),
			400, "Tool call id was call_1 but must be a-z, A-Z, 0-9, with a length of 9.", false},
		{"rate limited", providertest.Error(429,
			`{"object":"error","message":"Requests rate limit exceeded","type":"rate_limited","param":null,"code":"1300"}`, map[string]string{"Retry-After": "3"}),
			429, "Requests rate limit exceeded", true},
		{"finish_reason error", providertest.SSE("testdata/finish_error.sse"), http.StatusBadGateway, `the model stopped with finish_reason "error"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := providertest.New(t, tt.answer)
			_, _, err := stream(t, newProvider(s), hello())
			var apiErr *llm.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v, want *llm.APIError", err)
			}
			if apiErr.Status != tt.status || apiErr.Message != tt.message || llm.IsRetryable(err) != tt.retryable {
				t.Errorf("err = %+v", apiErr)
			}
			if apiErr.URL != s.URL+"/v1/chat/completions" {
				t.Errorf("error names %q", apiErr.URL)
			}
		})
	}
}

func TestMalformedStreamFails(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/malformed.sse"))
	resp, _, err := stream(t, newProvider(s), hello())
	if err == nil {
		t.Fatalf("malformed stream accepted: %+v", resp)
	}
	if !strings.Contains(err.Error(), s.URL+"/v1/chat/completions") {
		t.Errorf("error %q does not name the endpoint", err)
	}
}

func TestHashedIDsAreValidAndStable(t *testing.T) {
	m := newIDMapper()
	for _, id := range []string{"call_1", "toolu_01A", "", "ünïcode", "D681PevKs"} {
		got := m.mistralID(id)
		if !mistralIDPattern.MatchString(got) {
			t.Errorf("%q -> %q", id, got)
		}
		if again := newIDMapper().mistralID(id); again != got {
			t.Errorf("%q mapped to %q then %q", id, got, again)
		}
	}
	// Two ids that hash alike must still map apart: force it through taken.
	m2 := newIDMapper()
	m2.taken[hashID("x")] = "other"
	if got := m2.mistralID("x"); got == hashID("x") {
		t.Errorf("colliding id reused: %q", got)
	}
}
