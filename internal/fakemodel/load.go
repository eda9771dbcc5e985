package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// LoadScript reads a script file. The schema mirrors Script and Turn in
// snake_case; unknown keys are rejected so a typo fails loudly instead of
// silently scripting an empty turn. See testdata/example.json.
//
//	{
//	  "models": [{"id": "...", "aliases": ["..."], "type": "text-generation", "max_context_length": 131072}],
//	  "turns": [{
//	    "text": ["Hel", "lo"],                   // each string is one delta.content
//	    "reasoning": ["hmm"],                    // each string is one delta.reasoning_content
//	    "tool_calls": [{"id": "call_1", "name": "read", "arguments": {"path": "a.go"}, "fragments": 3}],
//	                                             // arguments: a JSON string is sent verbatim
//	                                             // (even if malformed); any other JSON value is
//	                                             // sent as its compact text
//	    "sequential_tool_calls": false, "omit_index": false,
//	    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15,
//	              "cached_tokens": 0, "reasoning_tokens": 0},
//	    "finish_reason": "stop",
//	    "error": {"status": 503, "detail": "..."}            // Albert {"detail"} body, or
//	           | {"status": 429, "message": "...", "type": "...", "code": "..."}  // OpenAI body, or
//	           | {"status": 502, "body": "raw text"},
//	    "stream_failure": {"code": "insufficient_quota", "message": "..."},
//	                                             // Responses wire only: after the turn's deltas,
//	                                             // response.failed with this error instead of
//	                                             // response.completed; code "server_error" when
//	                                             // empty; exclusive with "error"
//	    "headers": {"Retry-After": "10"},
//	    "first_byte_delay": "200ms", "chunk_delay": 20,       // Go duration string or milliseconds
//	    "hang": false, "drop": false
//	  }]
//	}
func LoadScript(path string) (Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Script{}, fmt.Errorf("load fake model script: %w", err)
	}
	s, err := ParseScript(data)
	if err != nil {
		return Script{}, fmt.Errorf("load fake model script %s: %w", path, err)
	}
	return s, nil
}

// ParseScript decodes and validates a script in LoadScript's schema.
func ParseScript(data []byte) (Script, error) {
	var f struct {
		Models []struct {
			ID               string   `json:"id"`
			Aliases          []string `json:"aliases"`
			Type             string   `json:"type"`
			MaxContextLength int      `json:"max_context_length"`
		} `json:"models"`
		Turns []json.RawMessage `json:"turns"`
	}
	if err := decodeStrict(data, &f); err != nil {
		return Script{}, err
	}
	var s Script
	for _, m := range f.Models {
		s.Models = append(s.Models, Model(m))
	}
	for i, raw := range f.Turns {
		t, err := parseTurn(raw)
		if err != nil {
			return Script{}, fmt.Errorf("turn %d: %w", i, err)
		}
		s.Turns = append(s.Turns, t)
	}
	return s, s.Validate()
}

type turnFile struct {
	Text                []string          `json:"text"`
	Reasoning           []string          `json:"reasoning"`
	ToolCalls           []toolCallFile    `json:"tool_calls"`
	SequentialToolCalls bool              `json:"sequential_tool_calls"`
	OmitIndex           bool              `json:"omit_index"`
	Usage               *usageFile        `json:"usage"`
	FinishReason        string            `json:"finish_reason"`
	Error               *errorFile        `json:"error"`
	StreamFailure       *streamFailFile   `json:"stream_failure"`
	Headers             map[string]string `json:"headers"`
	FirstByteDelay      duration          `json:"first_byte_delay"`
	ChunkDelay          duration          `json:"chunk_delay"`
	Hang                bool              `json:"hang"`
	Drop                bool              `json:"drop"`
}

type toolCallFile struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Fragments int             `json:"fragments"`
}

type streamFailFile struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type usageFile struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	CachedTokens     int `json:"cached_tokens"`
	ReasoningTokens  int `json:"reasoning_tokens"`
}

type errorFile struct {
	Status  int    `json:"status"`
	Body    string `json:"body"`
	Detail  string `json:"detail"`
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    string `json:"code"`
}

func parseTurn(raw json.RawMessage) (Turn, error) {
	var f turnFile
	if err := decodeStrict(raw, &f); err != nil {
		return Turn{}, err
	}
	t := Turn{
		Text:                f.Text,
		Reasoning:           f.Reasoning,
		SequentialToolCalls: f.SequentialToolCalls,
		OmitIndex:           f.OmitIndex,
		FinishReason:        f.FinishReason,
		Headers:             f.Headers,
		FirstByteDelay:      time.Duration(f.FirstByteDelay),
		ChunkDelay:          time.Duration(f.ChunkDelay),
		Hang:                f.Hang,
		Drop:                f.Drop,
	}
	if f.Usage != nil {
		u := Usage(*f.Usage)
		t.Usage = &u
	}
	if f.StreamFailure != nil {
		t.StreamFailure = &StreamFailure{Code: f.StreamFailure.Code, Message: f.StreamFailure.Message}
	}
	for j, c := range f.ToolCalls {
		args, err := argumentsText(c.Arguments)
		if err != nil {
			return Turn{}, fmt.Errorf("tool call %d (%s): %w", j, c.Name, err)
		}
		t.ToolCalls = append(t.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Arguments: args, Fragments: c.Fragments})
	}
	if f.Error != nil {
		e, err := f.Error.answer()
		if err != nil {
			return Turn{}, err
		}
		t.Error = e
	}
	return t, nil
}

// argumentsText accepts arguments as a JSON string (verbatim) or any other
// JSON value (compacted), so script authors can write objects naturally.
func argumentsText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return "", fmt.Errorf("arguments: %w", err)
	}
	return buf.String(), nil
}

func (e errorFile) answer() (*ErrorAnswer, error) {
	set := 0
	for _, v := range []string{e.Body, e.Detail, e.Message} {
		if v != "" {
			set++
		}
	}
	if set > 1 {
		return nil, fmt.Errorf("error: set only one of body, detail or message")
	}
	switch {
	case e.Detail != "":
		return &ErrorAnswer{Status: e.Status, Body: albertBody(e.Detail)}, nil
	case e.Message != "":
		return &ErrorAnswer{Status: e.Status, Body: openAIBody(e.Message, e.Type, e.Code)}, nil
	default:
		return &ErrorAnswer{Status: e.Status, Body: e.Body}, nil
	}
}

// duration decodes "150ms"-style strings or a number of milliseconds.
type duration time.Duration

func (d *duration) UnmarshalJSON(b []byte) error {
	var ms float64
	if err := json.Unmarshal(b, &ms); err == nil {
		*d = duration(ms * float64(time.Millisecond))
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration %s: want a string like \"150ms\" or milliseconds", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("duration %q: %w", s, err)
	}
	*d = duration(v)
	return nil
}

func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON value")
	}
	return nil
}
