package backend

import "encoding/json"

// EventKind names what an Event carries.
type EventKind string

const (
	// EventDelta carries a piece of the answer's text in Text.
	EventDelta EventKind = "delta"
	// EventSession carries the agent's session id in SessionID.
	EventSession EventKind = "session"
	// EventUsage carries the usage of one model call or turn.
	EventUsage EventKind = "usage"
	// EventReasoning carries a piece of the model's reasoning in Text.
	EventReasoning EventKind = "reasoning"
	// EventToolCall announces a tool call the agent runs: Tool has its id, name
	// and arguments.
	EventToolCall EventKind = "tool_call"
	// EventToolResult carries a tool call's output in Tool. A refused call has a
	// result without a call event.
	EventToolResult EventKind = "tool_result"
	// EventError carries an error message in Text, and ErrorKind when the backend
	// knows it; the run may go on.
	EventError EventKind = "error"
	// EventStop ends every run, exactly once, from the runner: StopReason, and the
	// final Usage. Streams never emit it.
	EventStop EventKind = "stop"
)

// Event is one step of a streamed run.
type Event struct {
	Kind       EventKind `json:"type"`
	Text       string    `json:"text,omitempty"`
	SessionID  string    `json:"session_id,omitempty"`
	Usage      *Usage    `json:"usage,omitempty"`
	StopReason string    `json:"stop_reason,omitempty"`
	// ExitCode is set on the runner's error and stop events for a CLI agent.
	ExitCode *int `json:"exit_code,omitempty"`
	// Tool is set on tool call and result events.
	Tool *ToolUse `json:"tool,omitempty"`
	// ErrorKind classifies an error event, when the backend can tell.
	ErrorKind ErrorKind `json:"error_kind,omitempty"`
}

// ToolUse is one tool call an agent made, and its result once known.
type ToolUse struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Output    string          `json:"output,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

// ErrorKind says what kind of failure an error is, so the API can answer with the
// matching status (429 for a rate limit, 401 for auth...).
type ErrorKind string

const (
	// ErrorRateLimit: the provider answered 429, after the backend's retries.
	ErrorRateLimit ErrorKind = "rate_limit"
	// ErrorAuth: the provider refused the credentials (401, 403) or none are set.
	ErrorAuth ErrorKind = "auth"
	// ErrorProvider: any other refusal or failure of the provider.
	ErrorProvider ErrorKind = "provider"
	// ErrorUnreachable: the provider could not be reached, or went silent.
	ErrorUnreachable ErrorKind = "unreachable"
	// ErrorAgent: the agent failed on its own (Result.AgentError).
	ErrorAgent ErrorKind = "agent"
	// ErrorCancelled, ErrorTimeout, ErrorIdle: the run was stopped.
	ErrorCancelled ErrorKind = "cancelled"
	ErrorTimeout   ErrorKind = "timeout"
	ErrorIdle      ErrorKind = "idle"
)
