package anthropic

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

const testTimeout = 10 * time.Second

func newProvider(s *providertest.Server) *Provider {
	return New(Options{BaseURL: s.URL, APIKey: "sk-ant-test", Timeout: testTimeout})
}

// stream runs one call and returns what it emitted.
func stream(t *testing.T, p llm.Provider, req llm.Request) (*llm.Response, []llm.StreamEvent, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	var events []llm.StreamEvent
	resp, err := p.Stream(ctx, req, func(e llm.StreamEvent) { events = append(events, e) })
	return resp, events, err
}

func userRequest(text string) llm.Request {
	return llm.Request{Model: "claude-sonnet-4-5", Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "You are terse."},
		{Role: llm.RoleUser, Content: text},
	}}
}

func TestStreamTextSendsMessagesRequest(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/text.sse"))
	temp := 0.2
	req := userRequest("Hi")
	req.Temperature = &temp
	resp, events, err := stream(t, newProvider(s), req)
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.StreamEvent{{Kind: llm.EventTextDelta, Text: "Hello"}, {Kind: llm.EventTextDelta, Text: "!"}}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events = %+v, want %+v", events, want)
	}
	if resp.Message.Content != "Hello!" || resp.FinishReason != "stop" || resp.Message.Model != "claude-sonnet-4-5-20250929" {
		t.Errorf("response = %+v", resp)
	}
	// Cache reads fill the window too, so they count as input.
	if want := (llm.Usage{InputTokens: 125, OutputTokens: 15, CachedInputTokens: 100}); resp.Usage != want {
		t.Errorf("usage = %+v, want %+v", resp.Usage, want)
	}
	r := s.Requests()[0]
	if r.Path != "/v1/messages" || r.Header.Get("X-Api-Key") != "sk-ant-test" || r.Header.Get("Anthropic-Version") != APIVersion {
		t.Errorf("request %s with headers %v", r.Path, r.Header)
	}
	body := r.JSON(t)
	if body["stream"] != true || body["max_tokens"] != float64(DefaultMaxTokens) || body["temperature"] != 0.2 {
		t.Errorf("body = %v", body)
	}
	if _, ok := body["thinking"]; ok {
		t.Errorf("thinking sent without a reasoning effort: %v", body["thinking"])
	}
	if got := canonicalJSON(t, body["cache_control"]); got != `{"type":"ephemeral"}` {
		t.Errorf("cache_control = %s", got)
	}
	system := body["system"].([]any)[0].(map[string]any)
	if system["text"] != "You are terse." {
		t.Errorf("system = %v", body["system"])
	}
	msgs := body["messages"].([]any)
	if len(msgs) != 1 || msgs[0].(map[string]any)["role"] != "user" {
		t.Errorf("messages = %v", msgs)
	}
}

func TestStreamThinkingAndToolUse(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/thinking_tool.sse"))
	resp, events, err := stream(t, newProvider(s), userRequest("Read main.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := resp.Message
	if m.Reasoning != "I need to read the file before answering." || m.Content != "Let me read it." {
		t.Errorf("message = %+v", m)
	}
	wantCalls := []llm.ToolCall{
		{ID: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", Name: "read_file", Arguments: `{"path": "main.go"}`},
		{ID: "toolu_01NoArgs000000000000000", Name: "list_todos", Arguments: "{}"},
	}
	if !reflect.DeepEqual(m.ToolCalls, wantCalls) {
		t.Errorf("calls = %+v, want %+v", m.ToolCalls, wantCalls)
	}
	if resp.FinishReason != "tool_calls" || resp.Usage.OutputTokens != 89 {
		t.Errorf("finish %q usage %+v", resp.FinishReason, resp.Usage)
	}
	var kinds []llm.EventKind
	for _, e := range events {
		kinds = append(kinds, e.Kind)
	}
	wantKinds := []llm.EventKind{llm.EventReasoningDelta, llm.EventReasoningDelta, llm.EventTextDelta,
		llm.EventToolCallStart, llm.EventToolCallDelta, llm.EventToolCallDelta, llm.EventToolCallStart}
	if !reflect.DeepEqual(kinds, wantKinds) {
		t.Errorf("event kinds = %v, want %v", kinds, wantKinds)
	}
	if blocks := decodeThinking(m.Reasoning, m.ReasoningSignature); len(blocks) != 1 ||
		blocks[0].signature != "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds" {
		t.Errorf("signature %q decodes to %+v", m.ReasoningSignature, blocks)
	}
}

// The next turn gives the thinking block back first, with its signature, as the
// API requires while a tool loop runs with thinking on.
func TestThinkingSentBackOnNextTurn(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/thinking_tool.sse"), providertest.SSE("testdata/text.sse"))
	p := newProvider(s)
	req := userRequest("Read main.go")
	req.ReasoningEffort = "high"
	temp := 0.3
	req.Temperature = &temp
	resp, _, err := stream(t, p, req)
	if err != nil {
		t.Fatal(err)
	}
	req.Messages = append(req.Messages, resp.Message,
		llm.Message{Role: llm.RoleTool, ToolCallID: resp.Message.ToolCalls[0].ID, Content: "package main"},
		llm.Message{Role: llm.RoleTool, ToolCallID: resp.Message.ToolCalls[1].ID, Content: "", IsError: true})
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatal(err)
	}
	body := s.Requests()[1].JSON(t)
	thinking := body["thinking"].(map[string]any)
	if thinking["type"] != "enabled" || thinking["budget_tokens"] != float64(16384) {
		t.Errorf("thinking = %v", thinking)
	}
	if _, ok := body["temperature"]; ok {
		t.Errorf("temperature sent with thinking on: %v", body["temperature"])
	}
	if body["max_tokens"].(float64) <= 16384 {
		t.Errorf("max_tokens %v not above the budget", body["max_tokens"])
	}
	msgs := body["messages"].([]any)
	assistant := msgs[1].(map[string]any)["content"].([]any)
	wantAssistant := `[{"signature":"EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds","thinking":"I need to read the file before answering.","type":"thinking"},` +
		`{"text":"Let me read it.","type":"text"},` +
		`{"id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","input":{"path":"main.go"},"name":"read_file","type":"tool_use"},` +
		`{"id":"toolu_01NoArgs000000000000000","input":{},"name":"list_todos","type":"tool_use"}]`
	if got := canonicalJSON(t, assistant); got != wantAssistant {
		t.Errorf("assistant blocks:\n got %s\nwant %s", got, wantAssistant)
	}
	results := msgs[2].(map[string]any)
	wantResults := `[{"content":[{"text":"package main","type":"text"}],"tool_use_id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","type":"tool_result"},` +
		`{"is_error":true,"tool_use_id":"toolu_01NoArgs000000000000000","type":"tool_result"}]`
	if results["role"] != "user" || canonicalJSON(t, results["content"]) != wantResults {
		t.Errorf("tool results = %s", canonicalJSON(t, results))
	}
}

func TestRedactedThinkingKeptInOrder(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/redacted.sse"), providertest.SSE("testdata/text.sse"))
	p := newProvider(s)
	req := userRequest("Think")
	resp, _, err := stream(t, p, req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.FinishReason != "length" || resp.Message.Reasoning != "Short thought." {
		t.Errorf("response = %+v", resp)
	}
	req.Messages = append(req.Messages, resp.Message, llm.Message{Role: llm.RoleUser, Content: "Go on"})
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatal(err)
	}
	assistant := s.Requests()[1].JSON(t)["messages"].([]any)[1].(map[string]any)["content"]
	want := `[{"data":"EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB9URj2pLmN4yUJ","type":"redacted_thinking"},` +
		`{"signature":"SigTwo==","thinking":"Short thought.","type":"thinking"},{"text":"Done.","type":"text"}]`
	if got := canonicalJSON(t, assistant); got != want {
		t.Errorf("assistant blocks:\n got %s\nwant %s", got, want)
	}
}

func TestToolsAndToolChoice(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/text.sse"), providertest.SSE("testdata/text.sse"))
	p := newProvider(s)
	req := userRequest("Hi")
	req.Tools = []llm.ToolSpec{
		{Name: "list_todos", Description: "Lists todos."},
		{Name: "read_file", Description: "Reads a file.", Parameters: json.RawMessage(
			`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)},
	}
	req.ToolChoice = llm.ToolChoice{Mode: llm.ToolChoiceFunction, Name: "read_file"}
	req.ReasoningEffort = "low"
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatal(err)
	}
	body := s.Requests()[0].JSON(t)
	want := `[{"description":"Lists todos.","input_schema":{"properties":{},"type":"object"},"name":"list_todos"},` +
		`{"description":"Reads a file.","input_schema":{"additionalProperties":false,"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"},"name":"read_file"}]`
	if got := canonicalJSON(t, body["tools"]); got != want {
		t.Errorf("tools:\n got %s\nwant %s", got, want)
	}
	if got := canonicalJSON(t, body["tool_choice"]); got != `{"name":"read_file","type":"tool"}` {
		t.Errorf("tool_choice = %s", got)
	}
	// The API refuses thinking with a forced tool.
	if _, ok := body["thinking"]; ok {
		t.Errorf("thinking sent with a forced tool choice")
	}
	req.ToolChoice = llm.ToolChoice{Mode: llm.ToolChoiceRequired}
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatal(err)
	}
	if got := canonicalJSON(t, s.Requests()[1].JSON(t)["tool_choice"]); got != `{"type":"any"}` {
		t.Errorf("required tool_choice = %s", got)
	}

	req.Tools = []llm.ToolSpec{{Name: "bad", Parameters: json.RawMessage(`[1]`)}}
	req.ToolChoice = llm.ToolChoice{}
	if _, _, err := stream(t, p, req); err == nil {
		t.Error("a tool whose schema is not an object was sent")
	}
}

func canonicalJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// Anthropic's clients read ANTHROPIC_* variables; our configuration alone decides
// where requests go and with which key.
func TestEnvironmentIsNotRead(t *testing.T) {
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("ANTHROPIC_API_KEY", "sk-from-env")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "token-from-env")
	s := providertest.New(t, providertest.SSE("testdata/text.sse"))
	if _, _, err := stream(t, newProvider(s), userRequest("Hi")); err != nil {
		t.Fatal(err)
	}
	h := s.Requests()[0].Header
	if h.Get("X-Api-Key") != "sk-ant-test" || h.Get("Authorization") != "" {
		t.Errorf("headers = %v", h)
	}
}
