package native

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// clientConversation is what an OpenAI client sends after running one of its tools.
const clientConversation = `[
	{"role": "system", "content": "Be brief."},
	{"role": "user", "content": [{"type": "text", "text": "Weather in "}, {"type": "text", "text": "Paris?"}]},
	{"role": "assistant", "content": null, "tool_calls": [
		{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]},
	{"role": "tool", "tool_call_id": "c1", "content": "18C"},
	{"role": "user", "content": "And in Lyon?"}
]`

const clientTools = `[{"type": "function", "function": {"name": "get_weather", "description": "Weather of a city.",
	"parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]`

func TestCompleteReturnsClientToolCallsInsteadOfRunningThem(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{ID: "c2", Name: "get_weather", Arguments: `{"city":"Lyon"}`, Fragments: 3}}})
	var msgs []OpenAIMessage
	var tools []OpenAITool
	if err := json.Unmarshal([]byte(clientConversation), &msgs); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(clientTools), &tools); err != nil {
		t.Fatal(err)
	}
	conv, err := MessagesFromOpenAI(msgs)
	if err != nil {
		t.Fatal(err)
	}
	specs, err := ToolsFromOpenAI(tools)
	if err != nil {
		t.Fatal(err)
	}
	choice, err := ToolChoiceFromOpenAI(json.RawMessage(`{"type":"function","function":{"name":"get_weather"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var starts []llm.StreamEvent
	var fragments []string
	resp, err := w.native.Complete(t.Context(), TurnRequest{Messages: conv, Tools: specs, ToolChoice: choice}, func(ev llm.StreamEvent) {
		switch ev.Kind {
		case llm.EventToolCallStart:
			starts = append(starts, ev)
		case llm.EventToolCallDelta:
			fragments = append(fragments, ev.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(starts) != 1 || starts[0].ID != "c2" || starts[0].Name != "get_weather" || len(fragments) < 2 || strings.Join(fragments, "") != `{"city":"Lyon"}` {
		t.Errorf("streamed call %+v, fragments %q", starts, fragments)
	}
	if resp.FinishReason != "tool_calls" || len(resp.Message.ToolCalls) != 1 || resp.Message.ToolCalls[0].Arguments != `{"city":"Lyon"}` {
		t.Errorf("response %+v", resp)
	}
	b := body(t, w.srv, 0)
	want := map[string]any{}
	_ = json.Unmarshal([]byte(`{"tool_choice": {"type":"function","function":{"name":"get_weather"}},
		"tools": [{"type":"function","function":{"name":"get_weather","description":"Weather of a city.",
			"parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}],
		"messages": [
			{"role":"system","content":"Be brief."},
			{"role":"user","content":"Weather in Paris?"},
			{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},
			{"role":"tool","tool_call_id":"c1","content":"18C"},
			{"role":"user","content":"And in Lyon?"}]}`), &want)
	for k, v := range want {
		if !reflect.DeepEqual(b[k], v) {
			t.Errorf("%s sent as %s", k, args(b[k]))
		}
	}
}

func TestCompleteRefusesWhatTheClientCanFix(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	user := []llm.Message{{Role: llm.RoleUser, Content: "hi"}}
	tests := map[string]TurnRequest{
		"unknown model":     {Model: "gpt-9", Messages: user},
		"named tool absent": {Messages: user, ToolChoice: llm.ToolChoice{Mode: llm.ToolChoiceFunction, Name: "x"}},
		"required, no tool": {Messages: user, ToolChoice: llm.ToolChoice{Mode: llm.ToolChoiceRequired}},
		"empty":             {},
		"thinking":          {Messages: user, Thinking: "max"},
	}
	for name, req := range tests {
		if _, err := w.native.Complete(t.Context(), req, nil); !errors.Is(err, backend.ErrInvalidRequest) {
			t.Errorf("%s: %v, want an invalid request", name, err)
		}
	}
}

func TestCompleteErrorsAreClassified(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakemodel.Turn{Error: &fakemodel.ErrorAnswer{Status: 429, Body: `{"detail":"quota"}`}}.WithHeader("Retry-After", "3600"))
	_, err := w.native.Complete(t.Context(), TurnRequest{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
	if ErrorKindOf(err) != backend.ErrorRateLimit {
		t.Errorf("%v: kind %q", err, ErrorKindOf(err))
	}
}
