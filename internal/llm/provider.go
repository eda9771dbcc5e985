package llm

import (
	"context"
	"time"
)

// Request is one model call.
type Request struct {
	// Model is the wire model name the server knows.
	Model string
	// Messages is the whole prompt, system message first when there is one.
	Messages []Message
	Tools    []ToolSpec
	// ToolChoice constrains the use of Tools; the zero value lets the model choose.
	ToolChoice ToolChoice
	// ReasoningEffort asks a reasoning model to think less or more (low, medium,
	// high); empty leaves the server's default.
	ReasoningEffort string
	// Temperature is sent only when non-nil.
	Temperature *float64
	// MaxTokens caps the answer when positive.
	MaxTokens int
	// SessionID lets servers keep a KV cache warm for one conversation (Albert's
	// x-affinity header); empty means none.
	SessionID string
}

// EventKind names what a StreamEvent carries.
type EventKind int

const (
	// EventTextDelta carries a piece of the answer in Text.
	EventTextDelta EventKind = iota + 1
	// EventReasoningDelta carries a piece of the model's reasoning in Text.
	EventReasoningDelta
	// EventToolCallStart announces a tool call: Index, ID and Name are set.
	EventToolCallStart
	// EventToolCallDelta carries a fragment of a call's JSON arguments in Text.
	EventToolCallDelta
	// EventRetry says the provider is about to try the call again after Err; the
	// face should forget what this call streamed so far.
	EventRetry
	// EventModelSwitch says the call goes to another model than the one asked for
	// (the rate limiter's fallback) or back to it: Name is the model now answering,
	// Text says why for the face to show.
	EventModelSwitch
	// EventWait says the call is held back for Wait before it is sent (a rate-limit
	// slot, or a server's Retry-After): Text says what it waits for.
	EventWait
)

// StreamEvent is one incremental piece of a streamed answer.
type StreamEvent struct {
	Kind  EventKind
	Text  string
	Index int
	ID    string
	Name  string
	Err   error
	// Wait is how long the call is held back, for EventWait.
	Wait time.Duration
}

// Response is the assembled result of a call once the stream has ended.
type Response struct {
	Message Message
	Usage   Usage
	// FinishReason is the server's reason ("stop", "tool_calls", "length", ...).
	FinishReason string
}

// Provider is the only thing in the program that talks to a model. Stream sends req,
// calls emit for every delta as it arrives (from the calling goroutine, in order), and
// returns the assembled answer. Errors are *APIError for HTTP failures and wrap
// ErrUnreachable for network failures.
type Provider interface {
	Stream(ctx context.Context, req Request, emit func(StreamEvent)) (*Response, error)
}

// ProviderFunc adapts a function to Provider.
type ProviderFunc func(ctx context.Context, req Request, emit func(StreamEvent)) (*Response, error)

// Stream calls f.
func (f ProviderFunc) Stream(ctx context.Context, req Request, emit func(StreamEvent)) (*Response, error) {
	return f(ctx, req, emit)
}
