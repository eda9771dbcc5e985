package vertex

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// Thinking budgets per reasoning effort. thinkingBudget, unlike thinkingLevel, is
// read by both Gemini 2.5 and 3. By judgement: 24576 is Gemini 2.5 Flash's
// largest budget, and each step below is a few times smaller.
var thinkingBudgets = map[string]int32{"low": 1024, "medium": 8192, "high": 24576}

// buildRequest translates a canonical request into the request body.
func buildRequest(req llm.Request) (*request, error) {
	if err := req.ToolChoice.Check(req.Tools); err != nil {
		return nil, err
	}
	system, contents := wireContents(req.Messages)
	out := &request{Contents: contents}
	if system != "" {
		out.SystemInstruction = &content{Role: roleUser, Parts: []*part{{Text: system}}}
	}
	cfg := generationConfig{Temperature: req.Temperature}
	if req.MaxTokens > 0 {
		cfg.MaxOutputTokens = req.MaxTokens
	}
	if budget, ok := thinkingBudgets[req.ReasoningEffort]; ok {
		cfg.ThinkingConfig = &thinkingConfig{ThinkingBudget: budget, IncludeThoughts: true}
	}
	if cfg != (generationConfig{}) {
		out.GenerationConfig = &cfg
	}
	if len(req.Tools) > 0 {
		decls, err := declarations(req.Tools)
		if err != nil {
			return nil, err
		}
		out.Tools = []tool{{FunctionDeclarations: decls}}
		out.ToolConfig = &toolConfig{FunctionCallingConfig: callingConfig(req.ToolChoice)}
	}
	return out, nil
}

const (
	roleUser  = "user"
	roleModel = "model"
)

// wireContents joins system messages into one instruction and converts the rest.
// Tool results and user text that follow each other become one user turn, results
// first: Gemini wants every function response of a step right after its calls.
func wireContents(history []llm.Message) (string, []*content) {
	var system bytes.Buffer
	var out []*content
	names := map[string]string{}
	var results, texts []*part
	flush := func() {
		if parts := append(results, texts...); len(parts) > 0 {
			out = append(out, &content{Role: roleUser, Parts: parts})
		}
		results, texts = nil, nil
	}
	for _, m := range history {
		switch m.Role {
		case llm.RoleSystem:
			if system.Len() > 0 {
				system.WriteString("\n\n")
			}
			system.WriteString(m.Content)
		case llm.RoleUser:
			if m.Content != "" {
				texts = append(texts, &part{Text: m.Content})
			}
		case llm.RoleTool:
			name := m.ToolName
			if name == "" {
				name = names[m.ToolCallID]
			}
			key := "output"
			if m.IsError {
				key = "error"
			}
			results = append(results, &part{FunctionResponse: &functionResponse{
				ID: m.ToolCallID, Name: name, Response: map[string]any{key: m.Content}}})
		case llm.RoleAssistant:
			flush()
			for _, tc := range m.ToolCalls {
				names[tc.ID] = tc.Name
			}
			if parts := modelParts(m); len(parts) > 0 {
				out = append(out, &content{Role: roleModel, Parts: parts})
			}
		}
	}
	flush()
	return system.String(), out
}

// modelParts gives back a model turn with its thought signatures where Gemini put
// them. Thought summaries are not sent back: the signatures carry the reasoning.
func modelParts(m llm.Message) []*part {
	sigs := decodeSignatures(m.ReasoningSignature)
	var parts []*part
	if m.Content != "" || (sigs.Text != "" && len(m.ToolCalls) == 0) {
		parts = append(parts, &part{Text: m.Content, ThoughtSignature: bytesOf(sigs.Text)})
	}
	for i, tc := range m.ToolCalls {
		p := &part{FunctionCall: &functionCall{ID: tc.ID, Name: tc.Name, Args: callArgs(tc.Arguments)}}
		if sig, ok := sigs.Calls[i]; ok {
			p.ThoughtSignature = bytesOf(sig)
		} else if i == 0 {
			p.ThoughtSignature = skipSignature
		}
		parts = append(parts, p)
	}
	return parts
}

// callArgs is a call's arguments as the object Gemini wants; arguments the model
// wrote as broken JSON were already reported to it, and go back empty.
func callArgs(args string) map[string]any {
	var out map[string]any
	if json.Unmarshal([]byte(args), &out) != nil || out == nil {
		return map[string]any{}
	}
	return out
}

// declarations passes each tool's JSON Schema as parametersJsonSchema, which takes
// full JSON Schema where parameters takes only OpenAPI's subset. A tool with no
// parameters is declared without a schema.
func declarations(specs []llm.ToolSpec) ([]functionDeclaration, error) {
	decls := make([]functionDeclaration, len(specs))
	for i, s := range specs {
		d := functionDeclaration{Name: s.Name, Description: s.Description}
		if params := bytes.TrimSpace(s.Parameters); len(params) > 0 && string(params) != "null" {
			var schema map[string]any
			if params[0] != '{' || json.Unmarshal(params, &schema) != nil {
				return nil, fmt.Errorf("tool %q: parameters are not a JSON object: %.80s", s.Name, params)
			}
			d.ParametersJSONSchema = schema
		}
		decls[i] = d
	}
	return decls, nil
}

func callingConfig(c llm.ToolChoice) *functionCallingConfig {
	switch c.Mode {
	case llm.ToolChoiceNone:
		return &functionCallingConfig{Mode: "NONE"}
	case llm.ToolChoiceRequired:
		return &functionCallingConfig{Mode: "ANY"}
	case llm.ToolChoiceFunction:
		return &functionCallingConfig{Mode: "ANY", AllowedFunctionNames: []string{c.Name}}
	}
	return &functionCallingConfig{Mode: "AUTO"}
}
