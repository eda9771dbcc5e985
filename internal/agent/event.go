package agent

import (
	"encoding/json"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// EventKind names what an Event carries. The values are stable: they are the "type"
// field of headless stream-json output.
type EventKind string

const (
	EventTextDelta       EventKind = "text_delta"
	EventReasoningDelta  EventKind = "reasoning_delta"
	EventToolCallStart   EventKind = "tool_call_start"
	EventToolCallUpdate  EventKind = "tool_call_progress"
	EventToolCallResult  EventKind = "tool_call_result"
	EventPermission      EventKind = "permission_request"
	EventUsage           EventKind = "usage"
	EventRetry           EventKind = "retry"
	EventRateLimitWait   EventKind = "rate_limit_wait"
	EventNotice          EventKind = "notice"
	EventCompactionStart EventKind = "compaction_start"
	EventCompactionEnd   EventKind = "compaction_end"
	EventTurnEnd         EventKind = "turn_end"
	EventError           EventKind = "error"
)

// StopReason says why a run ended.
type StopReason string

const (
	StopEndTurn   StopReason = "end_turn"
	StopMaxTurns  StopReason = "max_turns"
	StopMaxPrice  StopReason = "max_price"
	StopCancelled StopReason = "cancelled"
	StopError     StopReason = "error"
)

// Event is the one thing every face renders. Only the fields that matter for Kind are set.
type Event struct {
	Kind EventKind `json:"type"`
	// Text is the delta for text and reasoning, the message for notices and errors,
	// the partial output for tool progress.
	Text string `json:"text,omitempty"`
	// Tool describes the call for tool and permission events.
	Tool *ToolEvent `json:"tool,omitempty"`
	// Usage is the last call's usage; Stats the session's totals.
	Usage *llm.Usage `json:"usage,omitempty"`
	Stats *Stats     `json:"stats,omitempty"`
	// Stop is set on turn end.
	Stop StopReason `json:"stop_reason,omitempty"`
	// WaitSeconds is how long a rate_limit_wait holds the call back; Text says
	// what it waits for.
	WaitSeconds float64 `json:"wait_seconds,omitempty"`
}

// ToolEvent describes one tool call.
type ToolEvent struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Output    string          `json:"output,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	Truncated bool            `json:"truncated,omitempty"`
	// Display is rich data for faces (diffs, todo lists); not serialised.
	Display any `json:"-"`
	// Reason explains a permission request (a path outside the workspace...).
	Reason string `json:"reason,omitempty"`
	// Refused marks the result of a call that did not run: the policy, the user, a
	// hook or the profile refused it. Output says why.
	Refused bool `json:"refused,omitempty"`
}

// Stats are a session's running totals.
type Stats struct {
	// Turns counts model calls in the current run.
	Turns int `json:"turns"`
	// Usage and Cost accumulate over the whole session.
	Usage llm.Usage `json:"usage"`
	// Cost is in the currency of the model prices (EUR for the shipped tables).
	Cost float64 `json:"cost"`
	// ContextTokens is the size of the last prompt plus its answer: how full the
	// context window is.
	ContextTokens int64 `json:"context_tokens"`
}
