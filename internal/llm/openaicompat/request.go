package openaicompat

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// userMergeSeparator joins consecutive user messages, which chat templates such as
// Mistral's reject ("roles must alternate"); the seed merges them the same way.
const userMergeSeparator = "\n\n"

// chatRequest is the Chat Completions body, limited to the fields we send. Every
// call streams, with usage asked for: it arrives in a last chunk with no choices.
type chatRequest struct {
	Model         string        `json:"model"`
	Messages      []wireMessage `json:"messages"`
	Tools         []wireTool    `json:"tools,omitempty"`
	ToolChoice    any           `json:"tool_choice,omitempty"`
	Stream        bool          `json:"stream"`
	StreamOptions streamOptions `json:"stream_options"`
	Temperature   *float64      `json:"temperature,omitempty"`
	MaxTokens     int           `json:"max_tokens,omitempty"`
	// ReasoningEffort is OpenAI's name, which vLLM and Albert read too.
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// wireMessage is one message of any role. Content is a pointer because an
// assistant message with tool calls leaves it out while every other message sends
// it, even empty.
type wireMessage struct {
	Role    string  `json:"role"`
	Content *string `json:"content,omitempty"`
	// ReasoningContent gives an assistant's reasoning back under the name vLLM,
	// Albert and DeepSeek read (the seed's reasoning_field_name default).
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wireTool struct {
	Type     string          `json:"type"`
	Function wireFunctionDef `json:"function"`
}

type wireFunctionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// emptySchema is sent for a tool without parameters: servers reject a missing or
// null "parameters" in some versions (vLLM's validation, older Ollama).
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// encodeRequest translates a canonical request into the Chat Completions body.
// HTML characters are left unescaped: code is full of <, > and &, and the body
// stays readable in server logs.
func encodeRequest(req llm.Request) ([]byte, error) {
	body := chatRequest{
		Model:           req.Model,
		Messages:        wireMessages(req.Messages),
		Stream:          true,
		StreamOptions:   streamOptions{IncludeUsage: true},
		Temperature:     req.Temperature,
		ReasoningEffort: req.ReasoningEffort,
	}
	if len(req.Tools) > 0 {
		tools, err := wireTools(req.Tools)
		if err != nil {
			return nil, err
		}
		body.Tools = tools
		body.ToolChoice = wireToolChoice(req.ToolChoice)
	}
	if req.MaxTokens > 0 {
		body.MaxTokens = req.MaxTokens
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&body); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// wireToolChoice is a mode as a string, or a named function as OpenAI's object.
func wireToolChoice(c llm.ToolChoice) any {
	switch c.Mode {
	case "":
		return string(llm.ToolChoiceAuto)
	case llm.ToolChoiceFunction:
		return map[string]any{"type": "function", "function": map[string]string{"name": c.Name}}
	}
	return string(c.Mode)
}

func wireMessages(msgs []llm.Message) []wireMessage {
	out := make([]wireMessage, 0, len(msgs))
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case llm.RoleSystem:
			out = append(out, wireMessage{Role: "system", Content: &m.Content})
		case llm.RoleUser:
			content := m.Content
			for i+1 < len(msgs) && msgs[i+1].Role == llm.RoleUser {
				i++
				content += userMergeSeparator + msgs[i].Content
			}
			out = append(out, wireMessage{Role: "user", Content: &content})
		case llm.RoleAssistant:
			out = append(out, assistantMessage(m))
		case llm.RoleTool:
			out = append(out, wireMessage{Role: "tool", Content: &m.Content, ToolCallID: m.ToolCallID})
		}
	}
	return out
}

func assistantMessage(m llm.Message) wireMessage {
	w := wireMessage{Role: "assistant", ReasoningContent: m.Reasoning}
	// With tool calls an empty content is left out (null); without, it is sent as
	// "" because some servers reject an assistant message with no content at all.
	if m.Content != "" || len(m.ToolCalls) == 0 {
		w.Content = &m.Content
	}
	if len(m.ToolCalls) > 0 {
		w.ToolCalls = make([]wireToolCall, len(m.ToolCalls))
		for i, tc := range m.ToolCalls {
			w.ToolCalls[i] = wireToolCall{ID: tc.ID, Type: "function",
				Function: wireFunction{Name: tc.Name, Arguments: tc.Arguments}}
		}
	}
	return w
}

// wireTools passes each schema through as written, after checking it is a JSON
// object: a tool with a broken schema fails the call here, naming the tool,
// instead of as a 422 from the server.
func wireTools(specs []llm.ToolSpec) ([]wireTool, error) {
	tools := make([]wireTool, len(specs))
	for i, s := range specs {
		schema := emptySchema
		if params := bytes.TrimSpace(s.Parameters); len(params) > 0 && string(params) != "null" {
			if params[0] != '{' || !json.Valid(params) {
				return nil, fmt.Errorf("tool %q: parameters are not a JSON object: %.80s", s.Name, params)
			}
			schema = params
		}
		tools[i] = wireTool{Type: "function",
			Function: wireFunctionDef{Name: s.Name, Description: s.Description, Parameters: schema}}
	}
	return tools, nil
}

// stringParams reports, from the tools' schemas, which parameters are declared as
// strings, so XML-recovered values that look like JSON stay text.
func stringParams(specs []llm.ToolSpec) func(tool, param string) bool {
	declared := map[[2]string]bool{}
	for _, s := range specs {
		var schema struct {
			Properties map[string]struct {
				Type json.RawMessage `json:"type"`
			} `json:"properties"`
		}
		if json.Unmarshal(s.Parameters, &schema) != nil {
			continue
		}
		for name, prop := range schema.Properties {
			if isStringType(prop.Type) {
				declared[[2]string{s.Name, name}] = true
			}
		}
	}
	return func(tool, param string) bool { return declared[[2]string{tool, param}] }
}

// isStringType accepts "string" and ["string", "null"].
func isStringType(raw json.RawMessage) bool {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one == "string"
	}
	var many []string
	if json.Unmarshal(raw, &many) != nil {
		return false
	}
	str := false
	for _, t := range many {
		switch t {
		case "string":
			str = true
		case "null":
		default:
			return false
		}
	}
	return str
}
