package mistral

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// rewriteRequest adapts an openaicompat body to Mistral's schema, which refuses
// unknown fields (422 extra_forbidden):
//   - stream_options goes: Mistral sends usage in the last chunk unasked;
//   - tool_choice "required" is "any";
//   - reasoning_content, which openaicompat gives back on assistant messages, goes;
//   - tool call ids become nine letters or digits, the same way in calls and
//     results, and a tool result carries its function's name;
//   - a trailing assistant message without tool calls gets prefix: true, the only
//     way Mistral accepts an assistant message last.
func rewriteRequest(raw []byte) ([]byte, error) {
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, fmt.Errorf("read chat request: %w", err)
	}
	delete(body, "stream_options")
	if string(body["tool_choice"]) == `"required"` {
		body["tool_choice"] = json.RawMessage(`"any"`)
	}
	var msgs []map[string]any
	if err := json.Unmarshal(body["messages"], &msgs); err != nil {
		return nil, fmt.Errorf("read chat request messages: %w", err)
	}
	ids := newIDMapper()
	names := map[string]string{}
	for _, m := range msgs {
		delete(m, "reasoning_content")
		calls, _ := m["tool_calls"].([]any)
		for _, c := range calls {
			call, _ := c.(map[string]any)
			id, _ := call["id"].(string)
			call["id"] = ids.mistralID(id)
			if fn, ok := call["function"].(map[string]any); ok {
				names[id], _ = fn["name"].(string)
			}
		}
		if m["role"] == "tool" {
			id, _ := m["tool_call_id"].(string)
			m["tool_call_id"] = ids.mistralID(id)
			if name := names[id]; name != "" {
				m["name"] = name
			}
		}
	}
	if n := len(msgs); n > 0 && msgs[n-1]["role"] == "assistant" && msgs[n-1]["tool_calls"] == nil {
		msgs[n-1]["prefix"] = true
	}
	var err error
	if body["messages"], err = marshal(msgs); err != nil {
		return nil, err
	}
	return marshal(body)
}

// marshal keeps <, > and & as they are, as openaicompat does: code is full of them.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
