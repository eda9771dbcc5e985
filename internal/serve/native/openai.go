package native

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// OpenAIMessage is one message of an OpenAI chat request, as clients send it.
type OpenAIMessage struct {
	Role string `json:"role"`
	// Content is a string, an array of content parts, or null.
	Content    json.RawMessage  `json:"content,omitempty"`
	Name       string           `json:"name,omitempty"`
	ToolCalls  []OpenAIToolCall `json:"tool_calls,omitempty"`
	ToolCallID string           `json:"tool_call_id,omitempty"`
	// ReasoningContent is the reasoning vLLM-style servers send back.
	ReasoningContent string `json:"reasoning_content,omitempty"`
}

// OpenAIToolCall is a call in an assistant message.
type OpenAIToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// OpenAITool is one entry of a request's tools.
type OpenAITool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
	} `json:"function"`
}

// MessagesFromOpenAI turns an OpenAI conversation into ours. developer messages are
// system messages; a tool result must answer a call of an earlier assistant message.
// Errors name the message at fault by index.
func MessagesFromOpenAI(in []OpenAIMessage) ([]llm.Message, error) {
	out := make([]llm.Message, 0, len(in))
	calls := map[string]string{} // tool call id → function name
	for i, m := range in {
		text, err := contentText(m.Content)
		if err != nil {
			return nil, fmt.Errorf("messages[%d].content: %w", i, err)
		}
		switch m.Role {
		case "system", "developer":
			out = append(out, llm.Message{Role: llm.RoleSystem, Content: text})
		case "user":
			out = append(out, llm.Message{Role: llm.RoleUser, Content: text})
		case "assistant":
			msg := llm.Message{Role: llm.RoleAssistant, Content: text, Reasoning: m.ReasoningContent}
			for j, c := range m.ToolCalls {
				if c.ID == "" || c.Function.Name == "" {
					return nil, fmt.Errorf("messages[%d].tool_calls[%d]: id and function.name are required", i, j)
				}
				calls[c.ID] = c.Function.Name
				msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
			}
			out = append(out, msg)
		case "tool":
			name, ok := calls[m.ToolCallID]
			if !ok {
				return nil, fmt.Errorf("messages[%d]: tool_call_id %q answers no tool call of an earlier assistant message", i, m.ToolCallID)
			}
			out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: m.ToolCallID, ToolName: name, Content: text})
		default:
			return nil, fmt.Errorf("messages[%d].role %q: want system, developer, user, assistant or tool", i, m.Role)
		}
	}
	return out, nil
}

// contentText reads a content string, or joins the text of its parts; other parts
// (images, audio) are refused rather than dropped.
func contentText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if raw[0] == '"' {
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("want a string or an array of content parts")
	}
	var b strings.Builder
	for i, p := range parts {
		if p.Type != "text" {
			return "", fmt.Errorf("part %d is of type %q: only text parts are supported", i, p.Type)
		}
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// ToolsFromOpenAI turns a request's tools into specs, checking each is a function
// with a name and an object schema.
func ToolsFromOpenAI(in []OpenAITool) ([]llm.ToolSpec, error) {
	out := make([]llm.ToolSpec, 0, len(in))
	seen := map[string]bool{}
	for i, t := range in {
		f := t.Function
		switch {
		case t.Type != "function":
			return nil, fmt.Errorf("tools[%d].type %q: only function tools are supported", i, t.Type)
		case f.Name == "":
			return nil, fmt.Errorf("tools[%d].function.name is required", i)
		case seen[f.Name]:
			return nil, fmt.Errorf("tools[%d]: the function %q is given twice", i, f.Name)
		}
		seen[f.Name] = true
		if len(f.Parameters) > 0 {
			var schema map[string]any
			if err := json.Unmarshal(f.Parameters, &schema); err != nil {
				return nil, fmt.Errorf("tools[%d].function.parameters: want a JSON Schema object", i)
			}
		}
		out = append(out, llm.ToolSpec{Name: f.Name, Description: f.Description, Parameters: f.Parameters})
	}
	return out, nil
}

// ToolChoiceFromOpenAI reads tool_choice: "auto", "none", "required", or
// {"type":"function","function":{"name":...}}. Absent means auto.
func ToolChoiceFromOpenAI(raw json.RawMessage) (llm.ToolChoice, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return llm.ToolChoice{}, nil
	}
	var mode string
	if json.Unmarshal(raw, &mode) == nil {
		switch c := llm.ToolChoiceMode(mode); c {
		case llm.ToolChoiceAuto, llm.ToolChoiceNone, llm.ToolChoiceRequired:
			return llm.ToolChoice{Mode: c}, nil
		}
		return llm.ToolChoice{}, fmt.Errorf("tool_choice %q: want auto, none, required or a function object", mode)
	}
	var named struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(raw, &named); err != nil || named.Type != "function" || named.Function.Name == "" {
		return llm.ToolChoice{}, fmt.Errorf(`tool_choice: want {"type":"function","function":{"name":"..."}}`)
	}
	return llm.ToolChoice{Mode: llm.ToolChoiceFunction, Name: named.Function.Name}, nil
}
