package openaicompat

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// okStream is the smallest valid answer.
var okStream = sseHandler(textChunk("ok"), stopChunk("stop"), usageChunk(1, 1, 0, 0), done)

// roundTrip decodes v as JSON into a generic value, so expectations can be
// written as literals.
func roundTrip(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad expectation %s: %v", s, err)
	}
	return v
}

func TestRequestShape(t *testing.T) {
	t.Parallel()
	s := newServer(t, okStream)
	p := s.provider(Options{
		APIKey:       "sk-test",
		UserAgent:    "albert-code/1.2.3",
		ExtraHeaders: map[string]string{"X-Tenant": "dinum"},
	})
	temp := 0.2
	req := llm.Request{
		Model:       "Qwen/Qwen3-Coder-30B-A3B-Instruct",
		SessionID:   "sess-42",
		Temperature: &temp,
		MaxTokens:   512,
		Tools: []llm.ToolSpec{
			{Name: "read_file", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
			{Name: "pwd"},
		},
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "You are a coding agent."},
			{Role: llm.RoleUser, Content: "first"},
			{Role: llm.RoleUser, Content: "second", Synthetic: true},
			{Role: llm.RoleAssistant, Content: "", Reasoning: "Need the file.", ToolCalls: []llm.ToolCall{
				{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.go"}`},
			}},
			{Role: llm.RoleTool, ToolCallID: "call_1", ToolName: "read_file", Content: "package a"},
			{Role: llm.RoleAssistant, Content: "It is package a."},
		},
	}
	if _, _, err := collect(t, p, req); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	reqs := s.requests()
	if len(reqs) != 1 {
		t.Fatalf("server saw %d requests, want 1", len(reqs))
	}
	got := reqs[0]
	if got.path != "/v1/chat/completions" {
		t.Errorf("path = %q", got.path)
	}
	want := roundTrip(t, `{
		"model": "Qwen/Qwen3-Coder-30B-A3B-Instruct",
		"stream": true,
		"stream_options": {"include_usage": true},
		"temperature": 0.2,
		"max_tokens": 512,
		"tool_choice": "auto",
		"tools": [
			{"type": "function", "function": {"name": "read_file", "description": "Read a file.",
				"parameters": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}},
			{"type": "function", "function": {"name": "pwd", "parameters": {"type":"object","properties":{}}}}
		],
		"messages": [
			{"role": "system", "content": "You are a coding agent."},
			{"role": "user", "content": "first\n\nsecond"},
			{"role": "assistant", "reasoning_content": "Need the file.", "tool_calls": [
				{"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a.go\"}"}}
			]},
			{"role": "tool", "tool_call_id": "call_1", "content": "package a"},
			{"role": "assistant", "content": "It is package a."}
		]
	}`)
	if !reflect.DeepEqual(any(got.body), want) {
		gotJSON, _ := json.MarshalIndent(got.body, "", "  ")
		t.Errorf("body =\n%s", gotJSON)
	}
	headers := map[string]string{
		"Authorization": "Bearer sk-test",
		"User-Agent":    "albert-code/1.2.3",
		"X-Affinity":    "sess-42",
		"X-Tenant":      "dinum",
		"Content-Type":  "application/json",
	}
	for k, v := range headers {
		if g := got.header.Get(k); g != v {
			t.Errorf("header %s = %q, want %q", k, g, v)
		}
	}
	for k := range got.header {
		if strings.HasPrefix(k, "X-Stainless") {
			t.Errorf("SDK telemetry header %s sent", k)
		}
	}
}

// TestRequestShapeMinimal checks what is left out when not asked for, and that no
// OPENAI_* variable leaks into a request to another server.
func TestRequestShapeMinimal(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-must-not-leak")
	t.Setenv("OPENAI_ORG_ID", "org-must-not-leak")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/elsewhere")
	s := newServer(t, okStream)
	_, _, err := collect(t, s.provider(Options{}), llm.Request{
		Model:    "devstral",
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}, {Role: llm.RoleAssistant}},
	})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	got := s.requests()[0]
	want := roundTrip(t, `{"model":"devstral","stream":true,"stream_options":{"include_usage":true},
		"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":""}]}`)
	if !reflect.DeepEqual(any(got.body), want) {
		t.Errorf("body = %v, want %v", got.body, want)
	}
	for _, k := range []string{"Authorization", "X-Affinity", "Openai-Organization"} {
		if v := got.header.Get(k); v != "" {
			t.Errorf("header %s = %q, want none", k, v)
		}
	}
}

func TestRequestBadToolSchema(t *testing.T) {
	t.Parallel()
	s := newServer(t, okStream)
	_, _, err := collect(t, s.provider(Options{}), llm.Request{
		Model: "m",
		Tools: []llm.ToolSpec{{Name: "broken", Parameters: json.RawMessage(`[1,2]`)}},
	})
	if err == nil || !strings.Contains(err.Error(), `tool "broken"`) {
		t.Fatalf("err = %v, want it to name the tool", err)
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("server saw %d requests for an invalid request", n)
	}
}

func TestRequestToolChoiceAndReasoningEffort(t *testing.T) {
	t.Parallel()
	tools := []llm.ToolSpec{{Name: "get_weather"}}
	tests := []struct {
		choice llm.ToolChoice
		want   string
	}{
		{llm.ToolChoice{}, `"auto"`},
		{llm.ToolChoice{Mode: llm.ToolChoiceNone}, `"none"`},
		{llm.ToolChoice{Mode: llm.ToolChoiceRequired}, `"required"`},
		{llm.ToolChoice{Mode: llm.ToolChoiceFunction, Name: "get_weather"}, `{"type":"function","function":{"name":"get_weather"}}`},
	}
	for _, tc := range tests {
		body, err := encodeRequest(llm.Request{Model: "m", Tools: tools, ToolChoice: tc.choice, ReasoningEffort: "low"})
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(roundTrip(t, string(got["tool_choice"])), roundTrip(t, tc.want)) || string(got["reasoning_effort"]) != `"low"` {
			t.Errorf("%+v: tool_choice %s, reasoning_effort %s", tc.choice, got["tool_choice"], got["reasoning_effort"])
		}
	}
}
