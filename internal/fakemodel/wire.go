package fakemodel

// Wire types for OpenAI chat completions. Field order and null-versus-absent
// follow what api.openai.com sends, because some clients (the openai npm SDK,
// pi) are strict about exactly those details.

type chunk struct {
	ID                string        `json:"id"`
	Object            string        `json:"object"` // "chat.completion.chunk"
	Created           int64         `json:"created"`
	Model             string        `json:"model"`
	SystemFingerprint string        `json:"system_fingerprint"`
	Choices           []chunkChoice `json:"choices"`
	// Usage is JSON null on every chunk when the client asked for usage, and
	// absent otherwise; wireUsage is set only on the last, choice-less chunk.
	Usage *nullableUsage `json:"usage,omitempty"`
}

type nullableUsage struct{ u *wireUsage }

func (n nullableUsage) MarshalJSON() ([]byte, error) {
	if n.u == nil {
		return []byte("null"), nil
	}
	return []byte(mustJSON(n.u)), nil
}

type chunkChoice struct {
	Index        int     `json:"index"`
	Delta        delta   `json:"delta"`
	Logprobs     any     `json:"logprobs"`      // always null
	FinishReason *string `json:"finish_reason"` // null until the last chunk
}

type delta struct {
	Role             string          `json:"role,omitempty"`
	Content          *string         `json:"content,omitempty"`
	ReasoningContent *string         `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCallDelta `json:"tool_calls,omitempty"`
}

type toolCallDelta struct {
	Index    *int          `json:"index,omitempty"` // nil only for the OmitIndex quirk
	ID       string        `json:"id,omitempty"`
	Type     string        `json:"type,omitempty"`
	Function functionDelta `json:"function"`
}

type functionDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type completion struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"` // "chat.completion"
	Created           int64              `json:"created"`
	Model             string             `json:"model"`
	SystemFingerprint string             `json:"system_fingerprint"`
	Choices           []completionChoice `json:"choices"`
	Usage             wireUsage          `json:"usage"`
}

type completionChoice struct {
	Index        int     `json:"index"`
	Message      message `json:"message"`
	Logprobs     any     `json:"logprobs"`
	FinishReason string  `json:"finish_reason"`
}

type message struct {
	Role             string         `json:"role"`
	Content          *string        `json:"content"` // null when the model only calls tools
	ReasoningContent *string        `json:"reasoning_content,omitempty"`
	Refusal          *string        `json:"refusal"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
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

type wireUsage struct {
	PromptTokens            int                `json:"prompt_tokens"`
	CompletionTokens        int                `json:"completion_tokens"`
	TotalTokens             int                `json:"total_tokens"`
	PromptTokensDetails     promptDetails      `json:"prompt_tokens_details"`
	CompletionTokensDetails completionsDetails `json:"completion_tokens_details"`
}

type promptDetails struct {
	CachedTokens int `json:"cached_tokens"`
}

type completionsDetails struct {
	ReasoningTokens int `json:"reasoning_tokens"`
}

type modelList struct {
	Object string      `json:"object"` // "list"
	Data   []wireModel `json:"data"`
}

type wireModel struct {
	ID               string   `json:"id"`
	Object           string   `json:"object"` // "model"
	Created          int64    `json:"created"`
	OwnedBy          string   `json:"owned_by"`
	Type             string   `json:"type"`
	Aliases          []string `json:"aliases"`
	MaxContextLength int      `json:"max_context_length,omitempty"`
}

func (u *Usage) wire() wireUsage {
	if u == nil {
		return wireUsage{}
	}
	total := u.TotalTokens
	if total == 0 {
		total = u.PromptTokens + u.CompletionTokens
	}
	return wireUsage{
		PromptTokens:            u.PromptTokens,
		CompletionTokens:        u.CompletionTokens,
		TotalTokens:             total,
		PromptTokensDetails:     promptDetails{CachedTokens: u.CachedTokens},
		CompletionTokensDetails: completionsDetails{ReasoningTokens: u.ReasoningTokens},
	}
}
