package anthropic

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
)

func TestThinkingRoundTrip(t *testing.T) {
	blocks := []thinkingBlock{
		{text: "first ", signature: "sig1"},
		{redacted: "opaque"},
		{text: "second", signature: "sig2"},
	}
	reasoning, sig := encodeThinking(blocks)
	if reasoning != "first second" {
		t.Errorf("reasoning = %q", reasoning)
	}
	if got := decodeThinking(reasoning, sig); !reflect.DeepEqual(got, blocks) {
		t.Errorf("decoded %+v, want %+v", got, blocks)
	}
}

// Reasoning that cannot go back intact is dropped rather than refused by the API.
func TestThinkingNotSentBackWhenUnverifiable(t *testing.T) {
	reasoning, sig := encodeThinking([]thinkingBlock{{text: "thought", signature: "sig"}})
	tests := []struct{ name, reasoning, signature string }{
		{"another provider's signature", reasoning, "gemini-signature"},
		{"edited reasoning", reasoning + " more", sig},
		{"unsigned", reasoning, ""},
		{"corrupt record", reasoning, signaturePrefix + "{"},
		{"block without signature", "x", signaturePrefix + `[{"n":1}]`},
	}
	for _, tt := range tests {
		if got := decodeThinking(tt.reasoning, tt.signature); got != nil {
			t.Errorf("%s: decoded %+v, want nothing", tt.name, got)
		}
	}
}

func TestToolUseIDFitsTheAPIPattern(t *testing.T) {
	for in, want := range map[string]string{
		"toolu_01A-b": "toolu_01A-b",
		"call.1:x/y":  "call_1_x_y",
		"":            "toolu_missing",
	} {
		if got := toolUseID(in); got != want {
			t.Errorf("toolUseID(%q) = %q, want %q", in, got, want)
		}
	}
}

// A reminder the agent adds after tool results joins the results' user turn,
// after them: the API wants the results right after the tool_use blocks.
func TestToolResultsAndUserTextShareOneTurn(t *testing.T) {
	system, msgs := wireMessages([]llm.Message{
		{Role: llm.RoleSystem, Content: "a"}, {Role: llm.RoleSystem, Content: "b"},
		{Role: llm.RoleUser, Content: "go"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "t1", Name: "x", Arguments: "not json"}}},
		{Role: llm.RoleUser, Content: "reminder", Synthetic: true},
		{Role: llm.RoleTool, ToolCallID: "t1", Content: "r"},
	})
	raw, err := json.Marshal(msgs)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"content":[{"text":"go","type":"text"}],"role":"user"},` +
		`{"content":[{"id":"t1","input":{},"name":"x","type":"tool_use"}],"role":"assistant"},` +
		`{"content":[{"tool_use_id":"t1","content":[{"text":"r","type":"text"}],"type":"tool_result"},{"text":"reminder","type":"text"}],"role":"user"}]`
	if string(raw) != want {
		t.Errorf("messages:\n got %s\nwant %s", raw, want)
	}
	if len(system) != 2 {
		t.Errorf("system = %+v", system)
	}
}
