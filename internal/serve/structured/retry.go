package structured

import (
	"context"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// DefaultMaxRetries is how many corrective prompts follow a bad answer: the
// original's three. Each costs a model call; in practice agents comply at the first.
const DefaultMaxRetries = 3

// Turn is one attempt the driver asks for.
type Turn struct {
	// Index is 0 for the first attempt, then 1, 2...
	Index  int
	Prompt string
	// Resume is the session a retry continues. It is empty on the first attempt (the
	// caller's own session choice holds) and on a retry after an agent that reported
	// no session: that retry starts a fresh session, and Prompt restates the task.
	Resume string
}

// AttemptFunc runs one attempt, usually a runner.Run with the request's prompt and
// session replaced by the Turn's. Its error is for what prevented the run; an agent
// that failed is a Result with its exit code.
type AttemptFunc func(ctx context.Context, t Turn) (backend.Result, error)

// Options adjust Run.
type Options struct {
	// MaxRetries bounds the corrective prompts: 0 means DefaultMaxRetries, a
	// negative number none.
	MaxRetries int
	// Unchecked reports an answer to accept as it is: a tool-call turn of the OpenAI
	// endpoint's emulation, validated only once the final answer comes.
	Unchecked func(backend.Result) bool
}

// End says how a structured run ended, and so what the client gets.
type End string

const (
	// Matched: Outcome.Parsed holds the value (200).
	Matched End = "matched"
	// Unchecked: Options.Unchecked accepted the last answer (200).
	Unchecked End = "unchecked"
	// Exhausted: no attempt matched the schema (422, with Outcome.Err).
	Exhausted End = "exhausted"
	// AgentFailed: the agent exited non-zero or was stopped (500, with its exit code
	// and stderr), or the AttemptFunc returned an error.
	AgentFailed End = "agent_failed"
	// ProviderRefused: the model provider refused the request (400); no retry, as
	// the same request would be refused again.
	ProviderRefused End = "provider_refused"
	// Cancelled: the context ended before a retry could start.
	Cancelled End = "cancelled"
)

// Attempt is one run of the agent, as the API lists it.
type Attempt struct {
	Index      int           `json:"index"`
	Usage      backend.Usage `json:"usage"`
	ExitCode   int           `json:"exitCode"`
	ParseError string        `json:"parseError,omitempty"`
	// Result is the whole result: text, session, native records.
	Result backend.Result `json:"-"`
}

// Outcome is everything a structured run produced, whichever way it ended.
type Outcome struct {
	End    End
	Parsed Parsed
	// Err is the last parse error: set when Exhausted, and kept when a retry then
	// failed, so a 500 can still say why the retries ran.
	Err      *ParseError
	Attempts []Attempt
	// Usage is summed over every attempt: each was billed.
	Usage backend.Usage
}

// Last is the last attempt's result (the zero Result when none ran).
func (o *Outcome) Last() backend.Result {
	if len(o.Attempts) == 0 {
		return backend.Result{}
	}
	return o.Attempts[len(o.Attempts)-1].Result
}

// SessionID is the latest session any attempt reported.
func (o *Outcome) SessionID() string {
	for i := len(o.Attempts) - 1; i >= 0; i-- {
		if id := o.Attempts[i].Result.SessionID; id != "" {
			return id
		}
	}
	return ""
}

// OutputError says what of the agent's output could not be read, quoting it: the
// one attempt's OutputError, or with several attempts each one's, prefixed with
// its place in Attempts. Empty when every line was read.
func (o *Outcome) OutputError() string {
	var parts []string
	for i, a := range o.Attempts {
		if a.Result.OutputError == "" {
			continue
		}
		if len(o.Attempts) == 1 {
			return a.Result.OutputError
		}
		parts = append(parts, fmt.Sprintf("attempts[%d]: %s", i, a.Result.OutputError))
	}
	return strings.Join(parts, "; ")
}

// Retries counts the corrective attempts that ran.
func (o *Outcome) Retries() int { return max(len(o.Attempts)-1, 0) }

// Run runs prompt through attempt and checks each answer against s, sending a
// corrective prompt after a bad one, in the agent's session when it reported one.
// It stops at the first matching answer, at an agent or provider failure, when the
// retries are spent, or when ctx ends. The Outcome is complete in every case; the
// error is the AttemptFunc's, or ctx's.
func Run(ctx context.Context, prompt string, s *Schema, attempt AttemptFunc, opts Options) (*Outcome, error) {
	retries := opts.MaxRetries
	switch {
	case retries == 0:
		retries = DefaultMaxRetries
	case retries < 0:
		retries = 0
	}
	o := &Outcome{}
	turn := Turn{Prompt: prompt}
	for {
		res, err := attempt(ctx, turn)
		if err != nil {
			o.End = AgentFailed
			if ctx.Err() != nil {
				o.End = Cancelled
			}
			return o, err
		}
		o.Usage.Add(res.Usage)
		att := Attempt{Index: turn.Index, Usage: res.Usage, ExitCode: res.ExitCode, Result: res}
		if end, failed := failure(res); failed {
			o.Attempts = append(o.Attempts, att)
			o.End = end
			return o, nil
		}
		if opts.Unchecked != nil && opts.Unchecked(res) {
			o.Attempts = append(o.Attempts, att)
			o.End = Unchecked
			return o, nil
		}
		parsed, err := Extract(res.Text, s)
		if err == nil {
			o.Attempts = append(o.Attempts, att)
			o.Parsed, o.Err, o.End = parsed, nil, Matched
			return o, nil
		}
		perr := err.(*ParseError)
		att.ParseError = perr.Error()
		o.Attempts = append(o.Attempts, att)
		o.Err = perr
		if turn.Index >= retries {
			o.End = Exhausted
			return o, nil
		}
		if err := ctx.Err(); err != nil {
			o.End = Cancelled
			return o, err
		}
		next := Turn{Index: turn.Index + 1, Resume: o.SessionID()}
		if next.Resume != "" {
			next.Prompt = CorrectionInSession(perr, s)
		} else {
			next.Prompt = CorrectionFresh(prompt, res.Text, perr, s)
		}
		turn = next
	}
}

// failure classifies a result that must not be retried.
func failure(res backend.Result) (End, bool) {
	switch {
	case res.Stopped == "cancelled":
		return Cancelled, true
	case res.Stopped != "" && res.Stopped != "exited":
		return AgentFailed, true
	case res.ProviderError != "": // whatever the exit code: the real CLIs exit 1 on one
		return ProviderRefused, true
	case res.AgentError != "" || res.ExitCode != 0:
		return AgentFailed, true
	}
	return "", false
}
