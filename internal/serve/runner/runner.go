// Package runner runs one attempt of a request on a backend, whatever runs it (a CLI
// agent through its adapter, our agent in-process): the backend gets the server's
// settings for processes, and the caller the same events, ending with exactly one
// stop, and the same Result.
package runner

import (
	"context"
	"errors"
	"time"

	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/supervisor"
)

// Defaults for requests that set no limits; the original had none, so a hung agent
// held its workspace forever. Judgement: a long coding task is well under half an
// hour, and ten minutes without a line means stuck (a test suite run by the agent
// prints, and Claude Code prints each message).
const (
	DefaultTimeout     = 30 * time.Minute
	DefaultIdleTimeout = 10 * time.Minute
)

// Options configure a Runner.
type Options struct {
	Timeout, IdleTimeout time.Duration // defaults for requests without their own
	Grace                time.Duration
	// StdoutLimit and StderrLimit cap the captured streams (supervisor defaults if zero).
	StdoutLimit, StderrLimit int
	// BaseEnv is the agents' environment before the adapter's additions; nil means
	// the server's.
	BaseEnv []string
	// TempParent holds each run's private TempDir; empty means the system's.
	TempParent string
	// Sandbox confines CLI agents: "" or sandbox.Off runs them under the guardian
	// alone (their tree still stops with the run and dies with serve). Writable
	// are folders they may write besides their workspace (their own state).
	Sandbox  sandbox.Mode
	Writable []string
}

// Runner runs requests with one set of options.
type Runner struct {
	host backend.Host
}

// New returns a Runner.
func New(opts Options) *Runner {
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	return &Runner{host: backend.Host{
		Timeout: opts.Timeout, IdleTimeout: opts.IdleTimeout, Grace: opts.Grace,
		StdoutLimit: opts.StdoutLimit, StderrLimit: opts.StderrLimit,
		BaseEnv: opts.BaseEnv, TempParent: opts.TempParent,
		Sandbox: string(opts.Sandbox), Writable: opts.Writable,
	}}
}

// Run runs req on b, giving every event to emit (nil drops them; it is called from
// one goroutine at a time) and ending with exactly one stop. The error is for what
// prevented the run (backend.ErrInvalidRequest, a missing binary wrapping
// supervisor.ErrNotFound); an agent that failed is a Result with its exit code and
// stderr.
func (r *Runner) Run(ctx context.Context, b backend.Backend, req backend.Request, emit func(backend.Event)) (backend.Result, error) {
	if emit == nil {
		emit = func(backend.Event) {}
	}
	req.Host = r.host
	start := time.Now()
	res, err := b.Run(ctx, &req, func(ev backend.Event) {
		if ev.Kind != backend.EventStop {
			emit(ev)
		}
	})
	if errors.Is(err, backend.ErrNotStarted) {
		return res, err
	}
	if res.Duration == 0 {
		res.Duration = time.Since(start)
	}
	if err != nil {
		ev := backend.Event{Kind: backend.EventError, Text: err.Error()}
		if res.Stopped != "" {
			ev.ExitCode = intp(res.ExitCode)
		}
		emit(ev)
	}
	emit(stopEvent(res))
	return res, err
}

// stopEvent ends every run: why it stopped, in the agent's words when it finished
// normally, else the supervisor's; and the run's whole usage.
func stopEvent(res backend.Result) backend.Event {
	reason := res.StopReason
	switch {
	case res.Stopped != "" && res.Stopped != string(supervisor.Exited):
		reason = res.Stopped
	case res.ExitCode != 0 || res.ProviderError != "" || res.AgentError != "":
		reason = "error"
	case reason == "":
		reason = "stop"
	}
	u := res.Usage
	ev := backend.Event{Kind: backend.EventStop, StopReason: reason, Usage: &u}
	if res.Stopped != "" {
		ev.ExitCode = intp(res.ExitCode)
	}
	return ev
}

func intp(n int) *int { return &n }
