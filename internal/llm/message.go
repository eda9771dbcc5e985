// Package llm holds the canonical conversation types (messages, tool calls, usage) and
// the one streaming Provider interface through which the agent talks to any model.
// Wire formats live in the provider sub-packages; nothing here knows HTTP.
package llm

import "encoding/json"

// Role says who produced a message.
type Role string

const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of a conversation, independent of any provider's wire format.
// It is also the line format of a session's messages.jsonl, so field names are stable.
type Message struct {
	Role Role `json:"role"`
	// Content is the text of the message. For a tool message it is the tool's result.
	Content string `json:"content,omitempty"`
	// Reasoning is the model's visible chain of thought, when the server streams one.
	Reasoning string `json:"reasoning,omitempty"`
	// ReasoningSignature is an opaque provider token that must be sent back unchanged
	// with the reasoning it signs (Anthropic thinking blocks, Gemini thought signatures).
	ReasoningSignature string `json:"reasoning_signature,omitempty"`
	// ToolCalls are the calls an assistant message asks for, in order.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID and ToolName identify the call a tool message answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	ToolName   string `json:"name,omitempty"`
	// IsError marks a tool result that reports a failure to the model.
	IsError bool `json:"is_error,omitempty"`
	// Synthetic marks messages the agent wrote itself rather than a person or a model:
	// middleware reminders, cancellation results, compaction summaries.
	Synthetic bool `json:"synthetic,omitempty"`
	// Summary marks a compaction summary. In the prompt it stands in for the first
	// Replaces messages that precede it (system message excluded), while the session
	// log keeps them all. See PromptView.
	Summary  bool `json:"summary,omitempty"`
	Replaces int  `json:"replaces,omitempty"`
	// Model is the wire model name that produced an assistant message.
	Model string `json:"model,omitempty"`
	// Usage is what the call that produced an assistant message consumed.
	Usage *Usage `json:"usage,omitempty"`
}

// ToolCall is one function call requested by the model.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the raw JSON text the model produced. It may be invalid JSON:
	// validation is the tool layer's job, so the model can be told what went wrong.
	Arguments string `json:"arguments"`
}

// Usage counts tokens for one model call, or a sum of calls.
type Usage struct {
	InputTokens       int64 `json:"input_tokens"`
	OutputTokens      int64 `json:"output_tokens"`
	CachedInputTokens int64 `json:"cached_input_tokens,omitempty"`
	ReasoningTokens   int64 `json:"reasoning_tokens,omitempty"`
}

// Add accumulates u2 into u.
func (u *Usage) Add(u2 Usage) {
	u.InputTokens += u2.InputTokens
	u.OutputTokens += u2.OutputTokens
	u.CachedInputTokens += u2.CachedInputTokens
	u.ReasoningTokens += u2.ReasoningTokens
}

// Total is input plus output tokens.
func (u Usage) Total() int64 { return u.InputTokens + u.OutputTokens }

// ToolSpec describes a tool to the model: its name, what it does, and a JSON Schema
// object for its arguments.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}
