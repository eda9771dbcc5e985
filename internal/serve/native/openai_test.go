package native

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
)

func TestMessagesFromOpenAI(t *testing.T) {
	t.Parallel()
	var msgs []OpenAIMessage
	if err := json.Unmarshal([]byte(clientConversation), &msgs); err != nil {
		t.Fatal(err)
	}
	got, err := MessagesFromOpenAI(append(msgs, OpenAIMessage{Role: "developer", Content: json.RawMessage(`"dev"`)}))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 6 || got[1].Content != "Weather in Paris?" || got[2].ToolCalls[0].Name != "get_weather" ||
		got[3].Role != llm.RoleTool || got[3].ToolName != "get_weather" || got[5].Role != llm.RoleSystem {
		t.Errorf("%+v", got)
	}
}

func TestOpenAIBadInputNamesTheFault(t *testing.T) {
	t.Parallel()
	bad := []struct {
		msgs string
		want string
	}{
		{`[{"role":"tool","tool_call_id":"x","content":"r"}]`, `messages[0]: tool_call_id "x"`},
		{`[{"role":"user","content":[{"type":"image_url"}]}]`, "messages[0].content: part 0"},
		{`[{"role":"function","content":"x"}]`, `messages[0].role "function"`},
		{`[{"role":"user","content":42}]`, "messages[0].content"},
		{`[{"role":"assistant","tool_calls":[{"type":"function"}]}]`, "messages[0].tool_calls[0]"},
	}
	for _, tc := range bad {
		var msgs []OpenAIMessage
		if err := json.Unmarshal([]byte(tc.msgs), &msgs); err != nil {
			t.Fatal(err)
		}
		if _, err := MessagesFromOpenAI(msgs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want it to name %q", tc.msgs, err, tc.want)
		}
	}
	tools := map[string]string{
		`[{"type":"retrieval"}]`:                                                                    "tools[0].type",
		`[{"type":"function","function":{}}]`:                                                       "tools[0].function.name",
		`[{"type":"function","function":{"name":"a","parameters":[1]}}]`:                            "tools[0].function.parameters",
		`[{"type":"function","function":{"name":"a"}},{"type":"function","function":{"name":"a"}}]`: "given twice",
	}
	for raw, want := range tools {
		var ts []OpenAITool
		if err := json.Unmarshal([]byte(raw), &ts); err != nil {
			t.Fatal(err)
		}
		if _, err := ToolsFromOpenAI(ts); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
}

func TestToolChoiceFromOpenAI(t *testing.T) {
	t.Parallel()
	tests := map[string]llm.ToolChoice{
		``:           {},
		`"auto"`:     {Mode: llm.ToolChoiceAuto},
		`"none"`:     {Mode: llm.ToolChoiceNone},
		`"required"`: {Mode: llm.ToolChoiceRequired},
		`{"type":"function","function":{"name":"f"}}`: {Mode: llm.ToolChoiceFunction, Name: "f"},
	}
	for raw, want := range tests {
		if got, err := ToolChoiceFromOpenAI(json.RawMessage(raw)); err != nil || got != want {
			t.Errorf("%s: %+v %v", raw, got, err)
		}
	}
	for _, raw := range []string{`"always"`, `{"type":"function"}`, `42`} {
		if _, err := ToolChoiceFromOpenAI(json.RawMessage(raw)); err == nil {
			t.Errorf("%s accepted", raw)
		}
	}
}
