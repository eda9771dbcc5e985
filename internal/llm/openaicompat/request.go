package openaicompat

import (
	"encoding/json"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// reasoningField is where an assistant's reasoning goes back to the server: the
// name vLLM, Albert and DeepSeek read, and the seed's reasoning_field_name default.
const reasoningField = "reasoning_content"

// userMergeSeparator joins consecutive user messages, which chat templates such as
// Mistral's reject ("roles must alternate"); the seed merges them the same way.
const userMergeSeparator = "\n\n"

// buildParams translates a canonical request into the Chat Completions body.
func buildParams(req llm.Request) (openai.ChatCompletionNewParams, error) {
	params := openai.ChatCompletionNewParams{
		Model:    req.Model,
		Messages: wireMessages(req.Messages),
		// Usage arrives only on request, in a last chunk with no choices.
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if len(req.Tools) > 0 {
		tools, err := wireTools(req.Tools)
		if err != nil {
			return params, err
		}
		params.Tools = tools
		params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")}
	}
	if req.Temperature != nil {
		params.Temperature = openai.Float(*req.Temperature)
	}
	if req.MaxTokens > 0 {
		params.MaxTokens = openai.Int(int64(req.MaxTokens))
	}
	return params, nil
}

func wireMessages(msgs []llm.Message) []openai.ChatCompletionMessageParamUnion {
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case llm.RoleSystem:
			out = append(out, openai.SystemMessage(m.Content))
		case llm.RoleUser:
			content := m.Content
			for i+1 < len(msgs) && msgs[i+1].Role == llm.RoleUser {
				i++
				content += userMergeSeparator + msgs[i].Content
			}
			out = append(out, openai.UserMessage(content))
		case llm.RoleAssistant:
			out = append(out, assistantMessage(m))
		case llm.RoleTool:
			out = append(out, openai.ToolMessage(m.Content, m.ToolCallID))
		}
	}
	return out
}

func assistantMessage(m llm.Message) openai.ChatCompletionMessageParamUnion {
	a := openai.ChatCompletionAssistantMessageParam{}
	// With tool calls an empty content is left out (null); without, it is sent as
	// "" because some servers reject an assistant message with no content at all.
	if m.Content != "" || len(m.ToolCalls) == 0 {
		a.Content.OfString = openai.String(m.Content)
	}
	for _, tc := range m.ToolCalls {
		a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID: tc.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
					Name:      tc.Name,
					Arguments: tc.Arguments,
				},
			},
		})
	}
	if m.Reasoning != "" {
		a.SetExtraFields(map[string]any{reasoningField: m.Reasoning})
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
}

// emptySchema is sent for a tool without parameters: servers reject a missing or
// null "parameters" in some versions (vLLM's validation, older Ollama).
var emptySchema = shared.FunctionParameters{"type": "object", "properties": map[string]any{}}

func wireTools(specs []llm.ToolSpec) ([]openai.ChatCompletionToolUnionParam, error) {
	tools := make([]openai.ChatCompletionToolUnionParam, 0, len(specs))
	for _, s := range specs {
		schema := emptySchema
		if len(s.Parameters) > 0 && string(s.Parameters) != "null" {
			schema = shared.FunctionParameters{}
			if err := json.Unmarshal(s.Parameters, &schema); err != nil {
				return nil, fmt.Errorf("tool %q: parameters are not a JSON object: %w", s.Name, err)
			}
		}
		fn := shared.FunctionDefinitionParam{Name: s.Name, Parameters: schema}
		if s.Description != "" {
			fn.Description = openai.String(s.Description)
		}
		tools = append(tools, openai.ChatCompletionFunctionTool(fn))
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
