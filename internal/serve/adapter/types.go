// Package adapter is the contract between the serve layer and the agents it drives:
// the canonical run request, result and stream event, the interface a CLI agent's
// adapter implements (two required methods, the rest optional with defaults), the
// built-in adapters for Claude Code, Codex, pi and albert-code itself, and adapters
// declared in TOML so a new CLI agent needs no Go.
package adapter

import (
	"encoding/json"
	"time"
)

// Request is one run as the adapters see it. The zero value of every field is a
// sensible default; in particular the zero Request starts a fresh session.
type Request struct {
	Prompt string
	// Workspace is the absolute folder the agent runs in.
	Workspace string
	Model     string
	// SystemPrompt replaces the agent's system prompt; AppendSystemPrompt adds to it.
	SystemPrompt       string
	AppendSystemPrompt string
	// JSONSchema asks for a final answer matching this schema; adapters whose agent
	// enforces schemas natively pass it on, the others leave it to the caller's checks.
	JSONSchema json.RawMessage
	// Continue resumes the latest session in Workspace; Resume a given session (it
	// wins). With neither, the run starts a fresh session. The API's noContinue is
	// !Continue: the HTTP default is to continue, the library's is not.
	Continue bool
	Resume   string
	// Thinking is a reasoning effort level from the adapter's ThinkingLevels.
	Thinking string
	// ToolsAllowlist restricts the agent's own tools; NoTools disables them.
	ToolsAllowlist []string
	NoTools        bool
	// ExtraArgs are appended to the agent's argv, unchecked: for operators, not clients.
	ExtraArgs []string
	// Env is added to the agent's environment last.
	Env map[string]string
	// EventMode full keeps every native record of the run (Result.Records).
	EventMode EventMode
	// StreamTokens asks for token-level deltas where the agent can give them, at the
	// price of more output to parse.
	StreamTokens bool
	// TempDir is a private folder for this run, removed after it; adapters may write
	// files there (a schema file for codex). Empty when the runner gives none.
	TempDir string
	// Timeout bounds the run and IdleTimeout the time without output; zero takes
	// the runner's defaults.
	Timeout, IdleTimeout time.Duration
}

// EventMode says which native records a run keeps.
type EventMode string

const (
	EventsNone EventMode = "none"
	EventsFull EventMode = "full"
)

// Result is what a run produced. Adapters fill the first group of fields from the
// agent's output; the runner fills the rest.
type Result struct {
	Text      string
	SessionID string
	Usage     Usage
	// StopReason is the agent's own word for why it stopped (end_turn, stop...).
	StopReason string
	// ProviderError is set when the model provider refused the request although the
	// agent exited 0 (a content filter, an exhausted quota).
	ProviderError string
	// AgentError is set when the agent reported a failure of its own, the provider
	// not at fault: it reached its turn or budget limit, or its turn was aborted
	// (Claude Code's error_max_turns, error_during_execution...). It names the
	// agent's own word for it and its messages. The run has no answer.
	AgentError string
	// ErrorKind classifies ProviderError, AgentError or a stopped run, when the
	// backend knows it.
	ErrorKind ErrorKind
	// OutputError says what of the agent's output could not be read (a line that is
	// not a record, a record cut short, a missing final record), quoting it; the rest
	// of the Result is what could be read.
	OutputError string

	ExitCode int
	// Signal names the signal that ended the agent, if one did.
	Signal string
	// Stopped says why the run ended: exited, cancelled, timeout or idle.
	Stopped string
	Stdout  string
	Stderr  string
	// StdoutCut and StderrCut count the bytes cut from the captured streams.
	StdoutCut, StderrCut int64
	// Records holds the run's native records when EventMode is full.
	Records []Record
	// RecordsCut counts the records not kept past the runner's cap.
	RecordsCut int
	Duration   time.Duration
}

// Record is one native record of the agent's output, kept untouched.
type Record struct {
	// Type is the record's "type" field, "raw_stdout" for a line that is not a JSON
	// object, "unknown" for an object without a type.
	Type  string          `json:"eventType"`
	Event json.RawMessage `json:"event"`
}

// Usage counts tokens and cost. Agents name these differently; usageFrom reads them all.
type Usage struct {
	InputTokens      int64   `json:"input_tokens,omitempty"`
	OutputTokens     int64   `json:"output_tokens,omitempty"`
	CacheReadTokens  int64   `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int64   `json:"cache_write_tokens,omitempty"`
	ReasoningTokens  int64   `json:"reasoning_tokens,omitempty"`
	Cost             float64 `json:"cost,omitempty"`
	// Currency of Cost: USD for Claude Code and pi, EUR for albert-code's price tables.
	Currency string `json:"currency,omitempty"`
}

// Add accumulates o into u: usage is summed over every model call and every attempt,
// since each is billed.
func (u *Usage) Add(o Usage) {
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheReadTokens += o.CacheReadTokens
	u.CacheWriteTokens += o.CacheWriteTokens
	u.ReasoningTokens += o.ReasoningTokens
	u.Cost += o.Cost
	if u.Currency == "" {
		u.Currency = o.Currency
	}
}

// IsZero reports whether nothing was counted.
func (u Usage) IsZero() bool { return u == Usage{Currency: u.Currency} }

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
