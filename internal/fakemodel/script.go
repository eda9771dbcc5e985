package fakemodel

import (
	"fmt"
	"maps"
	"time"
)

// DefaultModelID is the model listed by GET /v1/models when a script names none.
const DefaultModelID = "fake-model"

// defaultArgumentFragments is how many pieces a tool call's arguments are split
// into when the turn does not say: three is the smallest count that has a first,
// a middle and a last piece, which is what breaks naive accumulators.
const defaultArgumentFragments = 3

// Script is what the fake model will answer, in order: request i consumes Turns[i].
// Models only feeds GET /v1/models; chat answers echo the model the request named.
type Script struct {
	Models []Model
	Turns  []Turn
	// EmbedDim is the length of POST /v1/embeddings vectors (64 when zero);
	// EmbedFail makes that endpoint answer 503. Embeddings consume no turn.
	EmbedDim  int
	EmbedFail bool
}

// Model is one entry of GET /v1/models, shaped like Albert's (OpenGateLLM) list.
type Model struct {
	ID               string
	Aliases          []string
	Type             string // "text-generation" when empty
	MaxContextLength int    // omitted when zero
}

// Turn is the answer to one chat-completion request. The zero Turn is a valid
// empty assistant message that finishes with "stop".
//
// Streamed deltas come in this order: Reasoning chunks, Text chunks, then tool
// call fragments. ChunkDelay precedes every one of them; FirstByteDelay precedes
// the response headers. A non-streamed answer sleeps the same total (Delay)
// before it is written, so both modes take the same scripted time.
type Turn struct {
	Text      []string   // each element is one delta.content
	Reasoning []string   // each element is one delta.reasoning_content
	ToolCalls []ToolCall // emitted as fragmented deltas

	// SequentialToolCalls emits each call's fragments before the next call's,
	// as OpenAI does; by default parallel calls are interleaved round-robin,
	// which is legal and harder for accumulators.
	SequentialToolCalls bool
	// OmitIndex drops "index" from tool-call deltas, as some vLLM builds do.
	// Calls are then emitted sequentially, since nothing else could tell them apart.
	OmitIndex bool

	Usage        *Usage // zero usage when nil; streamed only if the request asked
	FinishReason string // "tool_calls" if ToolCalls, else "stop", when empty

	Error   *ErrorAnswer      // answer with this HTTP error instead of a completion
	Headers map[string]string // extra response headers (Retry-After, x-ratelimit-*)

	FirstByteDelay time.Duration // before the status line
	ChunkDelay     time.Duration // before every scripted delta

	// Hang streams the scripted deltas, then blocks without finishing until the
	// client goes away or the server closes: for cancellation tests.
	Hang bool
	// Drop streams the scripted deltas, then closes the connection without a
	// finish chunk or [DONE]: for broken-stream tests.
	Drop bool
	// StreamFailure ends a Responses answer with response.failed (Responses wire only).
	StreamFailure *StreamFailure
}

// ToolCall is one function call the model makes.
type ToolCall struct {
	ID        string // "call_<turn>_<index>" when empty
	Name      string
	Arguments string // sent verbatim, so malformed JSON can be scripted on purpose
	// Fragments is how many deltas carry Arguments (3 when zero). The first
	// delta of a call always carries id, type, name and "" arguments.
	Fragments int
}

// Usage is the token accounting reported for a turn.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	TotalTokens      int // PromptTokens+CompletionTokens when zero
	CachedTokens     int // prompt_tokens_details.cached_tokens
	ReasoningTokens  int // completion_tokens_details.reasoning_tokens
}

// ErrorAnswer is an HTTP error response. Body is sent verbatim with
// Content-Type application/json unless Turn.Headers says otherwise.
type ErrorAnswer struct {
	Status int
	Body   string
}

// WithHeader returns a copy of t that also sends header name: value.
func (t Turn) WithHeader(name, value string) Turn {
	h := make(map[string]string, len(t.Headers)+1)
	maps.Copy(h, t.Headers)
	h[name] = value
	t.Headers = h
	return t
}

// Delay is the time the server itself spends on t: the first-byte delay plus
// one chunk delay per scripted delta. Error answers only wait for the first byte.
func (t Turn) Delay() time.Duration {
	if t.Error != nil {
		return t.FirstByteDelay
	}
	return t.FirstByteDelay + time.Duration(t.deltaCount())*t.ChunkDelay
}

// TotalDelay is the sum of every turn's Delay, so a benchmark can subtract the
// fake model's own scripted latency from a measured wall time.
func (s Script) TotalDelay() time.Duration {
	var d time.Duration
	for _, t := range s.Turns {
		d += t.Delay()
	}
	return d
}

func (t Turn) deltaCount() int {
	n := len(t.Text) + len(t.Reasoning)
	for _, c := range t.ToolCalls {
		n += 1 + c.fragments()
	}
	return n
}

func (c ToolCall) fragments() int {
	if c.Arguments == "" {
		return 0
	}
	if c.Fragments > 0 {
		return c.Fragments
	}
	return defaultArgumentFragments
}

func (t Turn) finishReason() string {
	switch {
	case t.FinishReason != "":
		return t.FinishReason
	case len(t.ToolCalls) > 0:
		return "tool_calls"
	default:
		return "stop"
	}
}

// Validate reports the first turn that cannot be served, by index.
func (s Script) Validate() error {
	for i, m := range s.Models {
		if m.ID == "" {
			return fmt.Errorf("fake model script: model %d has no id", i)
		}
	}
	for i, t := range s.Turns {
		if err := t.validate(); err != nil {
			return fmt.Errorf("fake model script: turn %d: %w", i, err)
		}
	}
	return nil
}

func (t Turn) validate() error {
	switch {
	case t.Hang && t.Drop:
		return fmt.Errorf("hang and drop are exclusive")
	case t.FirstByteDelay < 0 || t.ChunkDelay < 0:
		return fmt.Errorf("negative delay")
	case t.Error != nil && (t.Error.Status < 400 || t.Error.Status > 599):
		return fmt.Errorf("error status %d is not 4xx or 5xx", t.Error.Status)
	case t.Error != nil && t.StreamFailure != nil:
		// An error answers before any byte of the stream a failure would end.
		return fmt.Errorf("error and stream_failure are exclusive: error is an HTTP error answer, stream_failure ends a streamed one")
	}
	for j, c := range t.ToolCalls {
		if c.Name == "" {
			return fmt.Errorf("tool call %d has no name", j)
		}
		if c.Fragments < 0 {
			return fmt.Errorf("tool call %s: negative fragments", c.Name)
		}
	}
	return nil
}

// models returns the list GET /v1/models serves.
func (s Script) models() []Model {
	if len(s.Models) == 0 {
		return []Model{{ID: DefaultModelID}}
	}
	return s.Models
}
