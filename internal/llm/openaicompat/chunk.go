package openaicompat

import (
	"encoding/json"
	"errors"
)

// wireChunk is one chat.completion.chunk, limited to the fields we read. A null or
// absent field decodes to its zero value.
type wireChunk struct {
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	// Usage is nil except in the last chunk, when asked for.
	Usage *wireUsage `json:"usage"`
	// Error is set in the error event vLLM sends when generation fails after the
	// headers went out.
	Error json.RawMessage `json:"error"`
}

type chunkChoice struct {
	Index        int        `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason string     `json:"finish_reason"`
}

type chunkDelta struct {
	Content string `json:"content"`
	// vLLM, Albert and DeepSeek stream reasoning as reasoning_content; newer vLLM
	// and Ollama as reasoning. vLLM may send both with the same text, so only the
	// first non-empty one counts.
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []toolCallDelta `json:"tool_calls"`
}

type toolCallDelta struct {
	// Index is nil when the server leaves it out, as vLLM may.
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type wireUsage struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	PromptTokensDetails struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens int64 `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// decodeChunk reads one event's data. Like the SDK it replaces, it is lenient
// about a field of an unexpected type (left at its zero value, the rest of the
// chunk kept): compatible servers differ in details, and one odd field must not
// cost the whole answer. Malformed JSON, or JSON that is not an object, is an
// error.
func decodeChunk(data []byte, c *wireChunk) error {
	err := json.Unmarshal(data, c)
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return nil
	}
	return err
}

// isErrorEvent reports whether the chunk is an error event.
func (c *wireChunk) isErrorEvent() bool {
	return len(c.Error) > 0 && string(c.Error) != "null"
}
