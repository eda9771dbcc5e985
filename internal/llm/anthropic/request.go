package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// Thinking budgets per reasoning effort, by judgement: 1024 is the API's minimum,
// and each step quadruples, as Anthropic's docs suggest starting small and raising.
var thinkingBudgets = map[string]int64{"low": 1024, "medium": 4096, "high": 16384}

// answerRoom is added to max_tokens when the thinking budget would eat it all: the
// API wants max_tokens above budget_tokens. By judgement, room for a short answer.
const answerRoom = 4096

// params is the body of POST /v1/messages.
type params struct {
	Model        string         `json:"model"`
	MaxTokens    int64          `json:"max_tokens"`
	System       []block        `json:"system,omitempty"`
	Messages     []message      `json:"messages"`
	CacheControl *cacheControl  `json:"cache_control,omitempty"`
	Tools        []tool         `json:"tools,omitempty"`
	ToolChoice   *toolChoice    `json:"tool_choice,omitempty"`
	Thinking     *thinkingParam `json:"thinking,omitempty"`
	Temperature  *float64       `json:"temperature,omitempty"`
	Stream       bool           `json:"stream"`
}

// message is one turn; its fields are in the order the SDK wrote them, so that
// recorded bodies compare byte for byte.
type message struct {
	Content []block `json:"content"`
	Role    string  `json:"role"`
}

// block is any content block the requests carry: text, tool_use, tool_result,
// thinking, redacted_thinking. Type says which fields apply.
type block struct {
	ID        string          `json:"id,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	Name      string          `json:"name,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   []block         `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	Text      string          `json:"text,omitempty"`
	// Thinking is a pointer because a thinking block carries the field even empty.
	Thinking  *string `json:"thinking,omitempty"`
	Signature string  `json:"signature,omitempty"`
	Data      string  `json:"data,omitempty"`
	Type      string  `json:"type"`
}

type cacheControl struct {
	Type string `json:"type"`
}

type tool struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	InputSchema map[string]any `json:"input_schema"`
}

type toolChoice struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
}

type thinkingParam struct {
	Type         string `json:"type"`
	BudgetTokens int64  `json:"budget_tokens"`
}

func textBlock(s string) block { return block{Text: s, Type: "text"} }

// buildParams translates a canonical request into the request body.
func (p *Provider) buildParams(req llm.Request) (*params, error) {
	if err := req.ToolChoice.Check(req.Tools); err != nil {
		return nil, err
	}
	system, msgs := wireMessages(req.Messages)
	out := &params{
		Model:     req.Model,
		MaxTokens: int64(p.opts.MaxTokens),
		Messages:  msgs,
		System:    system,
		// One breakpoint on the last block: each turn then reads the whole
		// conversation so far from the cache, at a tenth of the input price,
		// instead of paying for it again.
		CacheControl: &cacheControl{Type: "ephemeral"},
		Stream:       true,
	}
	if req.MaxTokens > 0 {
		out.MaxTokens = int64(req.MaxTokens)
	}
	if len(req.Tools) > 0 {
		tools, err := wireTools(req.Tools)
		if err != nil {
			return nil, err
		}
		out.Tools = tools
		out.ToolChoice = wireToolChoice(req.ToolChoice)
	}
	if budget, ok := thinkingBudgets[req.ReasoningEffort]; ok && thinkingAllowed(req, msgs) {
		out.Thinking = &thinkingParam{Type: "enabled", BudgetTokens: budget}
		if out.MaxTokens <= budget {
			out.MaxTokens = budget + answerRoom
		}
	} else {
		// The API rejects a temperature other than 1 with thinking on.
		out.Temperature = req.Temperature
	}
	return out, nil
}

// thinkingAllowed reports whether thinking can be turned on for this request. The
// API refuses it with a forced tool choice, and when the last assistant turn is a
// tool call that does not start with a thinking block: the case of a history
// written by another provider, or by a call made without thinking.
func thinkingAllowed(req llm.Request, msgs []message) bool {
	switch req.ToolChoice.Mode {
	case llm.ToolChoiceRequired, llm.ToolChoiceFunction:
		return false
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "assistant" {
			continue
		}
		blocks := msgs[i].Content
		hasToolUse := false
		for _, b := range blocks {
			hasToolUse = hasToolUse || b.Type == "tool_use"
		}
		if !hasToolUse {
			return true
		}
		return blocks[0].Type == "thinking" || blocks[0].Type == "redacted_thinking"
	}
	return true
}

// wireMessages splits system messages off and converts the rest. Tool results and
// user text that follow each other become one user turn, tool results first, as
// the API wants them right after the assistant's tool_use blocks.
func wireMessages(history []llm.Message) ([]block, []message) {
	var system []block
	var out []message
	var results, texts []block
	flushUser := func() {
		if blocks := append(results, texts...); len(blocks) > 0 {
			out = append(out, message{Role: "user", Content: blocks})
		}
		results, texts = nil, nil
	}
	for _, m := range history {
		switch m.Role {
		case llm.RoleSystem:
			if m.Content != "" {
				system = append(system, textBlock(m.Content))
			}
		case llm.RoleUser:
			if m.Content != "" {
				texts = append(texts, textBlock(m.Content))
			}
		case llm.RoleTool:
			results = append(results, toolResult(m))
		case llm.RoleAssistant:
			flushUser()
			if blocks := assistantBlocks(m); len(blocks) > 0 {
				out = append(out, message{Role: "assistant", Content: blocks})
			}
		}
	}
	flushUser()
	return system, out
}

func toolResult(m llm.Message) block {
	b := block{Type: "tool_result", ToolUseID: toolUseID(m.ToolCallID), IsError: m.IsError}
	if m.Content != "" {
		b.Content = []block{textBlock(m.Content)}
	}
	return b
}

// assistantBlocks gives back an assistant turn: its thinking blocks when this
// provider signed them (another provider's reasoning cannot be verified and is
// dropped), then its text, then its tool calls.
func assistantBlocks(m llm.Message) []block {
	var blocks []block
	for _, t := range decodeThinking(m.Reasoning, m.ReasoningSignature) {
		if t.redacted != "" {
			blocks = append(blocks, block{Type: "redacted_thinking", Data: t.redacted})
		} else {
			blocks = append(blocks, block{Type: "thinking", Thinking: &t.text, Signature: t.signature})
		}
	}
	if m.Content != "" {
		blocks = append(blocks, textBlock(m.Content))
	}
	for _, tc := range m.ToolCalls {
		blocks = append(blocks, block{Type: "tool_use", ID: toolUseID(tc.ID), Input: toolInput(tc.Arguments), Name: tc.Name})
	}
	return blocks
}

// toolInput is a call's arguments as the JSON object the API wants. Arguments the
// model wrote as broken JSON were already reported to it by the tool layer; they
// go back as an empty object so the history stays valid.
func toolInput(args string) json.RawMessage {
	raw := bytes.TrimSpace([]byte(args))
	if len(raw) > 0 && raw[0] == '{' && json.Valid(raw) {
		return raw
	}
	return json.RawMessage(`{}`)
}

// toolUseID makes an id from another provider fit ^[a-zA-Z0-9_-]+$, the same way
// for a call and its result.
func toolUseID(id string) string {
	if id == "" {
		return "toolu_missing"
	}
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

func wireToolChoice(c llm.ToolChoice) *toolChoice {
	switch c.Mode {
	case llm.ToolChoiceNone:
		return &toolChoice{Type: "none"}
	case llm.ToolChoiceRequired:
		return &toolChoice{Type: "any"}
	case llm.ToolChoiceFunction:
		return &toolChoice{Type: "tool", Name: c.Name}
	}
	return &toolChoice{Type: "auto"}
}

// wireTools converts each tool's JSON Schema into input_schema, which must be an
// object schema. A tool with no parameters gets {"type":"object","properties":{}},
// which the API accepts where a missing schema is refused.
func wireTools(specs []llm.ToolSpec) ([]tool, error) {
	tools := make([]tool, len(specs))
	for i, s := range specs {
		schema := map[string]any{}
		if params := bytes.TrimSpace(s.Parameters); len(params) > 0 && string(params) != "null" {
			if params[0] != '{' || json.Unmarshal(params, &schema) != nil {
				return nil, fmt.Errorf("tool %q: parameters are not a JSON object: %.80s", s.Name, params)
			}
		}
		schema["type"] = "object"
		if schema["properties"] == nil {
			schema["properties"] = map[string]any{}
		}
		tools[i] = tool{Name: s.Name, Description: s.Description, InputSchema: schema}
	}
	return tools, nil
}
