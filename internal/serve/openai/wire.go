package openai

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// completion is a whole chat.completion answer.
type completion struct {
	ID      string             `json:"id"`
	Object  string             `json:"object"`
	Created int64              `json:"created"`
	Model   string             `json:"model"`
	Choices []completionChoice `json:"choices"`
	Usage   usage              `json:"usage"`
	// OutputError is ours, not OpenAI's: what of a CLI agent's output could not be
	// read, quoting the raw line. The answer is what could be read.
	OutputError string `json:"output_error,omitempty"`
}

type completionChoice struct {
	Index        int     `json:"index"`
	Message      message `json:"message"`
	FinishReason string  `json:"finish_reason"`
}

// message is the assistant's message. Content is null when the model only called
// tools, as OpenAI sends it.
type message struct {
	Role             string     `json:"role"`
	Content          *string    `json:"content"`
	ReasoningContent string     `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCall `json:"tool_calls,omitempty"`
}

type toolCall struct {
	// Index is set in stream deltas only.
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function functionCall `json:"function"`
}

type functionCall struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// chunk is one chat.completion.chunk of a stream. Usage is null on every chunk but
// the last when the client asked for usage, and absent otherwise.
type chunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	Usage   *nullUsage    `json:"usage,omitempty"`
	// OutputError is set on the chunk that carries the finish reason: completion's.
	OutputError string `json:"output_error,omitempty"`
}

type chunkChoice struct {
	Index        int     `json:"index"`
	Delta        delta   `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

type delta struct {
	Role             string     `json:"role,omitempty"`
	Content          *string    `json:"content,omitempty"`
	ReasoningContent string     `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCall `json:"tool_calls,omitempty"`
}

// nullUsage marshals as null when u is nil: chunks before the usage chunk carry
// "usage": null, as OpenAI's do.
type nullUsage struct{ u *usage }

func (n nullUsage) MarshalJSON() ([]byte, error) {
	if n.u == nil {
		return []byte("null"), nil
	}
	return json.Marshal(n.u)
}

type usage struct {
	PromptTokens            int64          `json:"prompt_tokens"`
	CompletionTokens        int64          `json:"completion_tokens"`
	TotalTokens             int64          `json:"total_tokens"`
	PromptTokensDetails     *promptDetails `json:"prompt_tokens_details,omitempty"`
	CompletionTokensDetails *outputDetails `json:"completion_tokens_details,omitempty"`
}

type promptDetails struct {
	CachedTokens int64 `json:"cached_tokens"`
}

type outputDetails struct {
	ReasoningTokens int64 `json:"reasoning_tokens"`
}

func usageOf(u backend.Usage) usage {
	out := usage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens, TotalTokens: u.InputTokens + u.OutputTokens}
	if u.CacheReadTokens > 0 {
		out.PromptTokensDetails = &promptDetails{CachedTokens: u.CacheReadTokens}
	}
	if u.ReasoningTokens > 0 {
		out.CompletionTokensDetails = &outputDetails{ReasoningTokens: u.ReasoningTokens}
	}
	return out
}

// fromLLM converts a model call's usage to the adapters' shape, which sums attempts.
func fromLLM(u llm.Usage) backend.Usage {
	return backend.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CachedInputTokens, ReasoningTokens: u.ReasoningTokens}
}

type modelList struct {
	Object string       `json:"object"`
	Data   []modelEntry `json:"data"`
}

type modelEntry struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

// newID returns prefix and 24 random hex digits: chatcmpl-..., call_...
func newID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

func ptr[T any](v T) *T { return &v }
