package fakemodel

import "encoding/json"

// Wire types for Anthropic Messages. Pointers mark fields that must be sent
// even when empty (a streamed block starts with "text": "").

type anthropicMessage struct {
	ID           string           `json:"id"`
	Type         string           `json:"type"` // "message"
	Role         string           `json:"role"`
	Model        string           `json:"model"`
	Content      []anthropicBlock `json:"content"`
	StopReason   *string          `json:"stop_reason"` // null in message_start
	StopSequence *string          `json:"stop_sequence"`
	Usage        anthropicUsage   `json:"usage"`
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	Thinking  *string         `json:"thinking,omitempty"`
	Signature *string         `json:"signature,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
}

type anthropicUsage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
}

// anthropic is u as Anthropic reports it. message_start carries the input
// side and no output yet (final false); message_delta and whole messages
// carry everything, output_tokens being cumulative.
func (u *Usage) anthropic(final bool) anthropicUsage {
	if u == nil {
		return anthropicUsage{}
	}
	out := anthropicUsage{InputTokens: u.PromptTokens, CacheReadInputTokens: u.CachedTokens}
	if final {
		out.OutputTokens = u.CompletionTokens
	}
	return out
}
