package backend

import (
	"encoding/json"
	"time"
)

// Result is what a run produced. The first group of fields comes from the agent's
// output; the rest from how its process ran (a CLI agent's), and the run's length.
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

// Usage counts tokens and cost, whatever the agent's names for them.
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
