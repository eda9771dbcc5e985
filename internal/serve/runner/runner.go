// Package runner runs one attempt of a request on a backend: a CLI agent through its
// adapter and the process supervisor, or a Direct backend in-process. Either way the
// caller gets the same events, ending with exactly one stop, and the same Result.
package runner

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/serve/adapter"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/supervisor"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// Defaults for requests that set no limits; the original had none, so a hung agent
// held its workspace forever. Judgement: a long coding task is well under half an
// hour, and ten minutes without a line means stuck (a test suite run by the agent
// prints, and Claude Code prints each message).
const (
	DefaultTimeout     = 30 * time.Minute
	DefaultIdleTimeout = 10 * time.Minute
)

// stderrInEvent is how much of stderr an error event carries: its end, where the
// reason is. The whole capture is in the Result.
const stderrInEvent = 500

// ErrInvalidRequest is backend.ErrInvalidRequest, for the importers not yet re-pointed.
var ErrInvalidRequest = backend.ErrInvalidRequest

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
	opts Options
}

// New returns a Runner.
func New(opts Options) *Runner {
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	return &Runner{opts: opts}
}

// Run runs req on b, giving every event to emit (nil drops them; it is called from
// one goroutine at a time). The error is for what prevented the run (ErrInvalidRequest,
// a missing binary wrapping supervisor.ErrNotFound); an agent that failed is a Result
// with its exit code and stderr.
func (r *Runner) Run(ctx context.Context, b adapter.Backend, req backend.Request, emit func(backend.Event)) (backend.Result, error) {
	if emit == nil {
		emit = func(backend.Event) {}
	}
	switch b := b.(type) {
	case adapter.Adapter:
		return r.runProcess(ctx, b, req, emit)
	case adapter.Direct:
		return r.runDirect(ctx, b, req, emit)
	default:
		return backend.Result{}, fmt.Errorf("backend %s is neither an Adapter nor a Direct backend", b.Name())
	}
}

func (r *Runner) runDirect(ctx context.Context, d adapter.Direct, req backend.Request, emit func(backend.Event)) (backend.Result, error) {
	start := time.Now()
	res, err := d.Run(ctx, &req, func(ev backend.Event) {
		if ev.Kind != backend.EventStop {
			emit(ev)
		}
	})
	res.Duration = time.Since(start)
	if err != nil {
		emit(backend.Event{Kind: backend.EventError, Text: err.Error()})
	}
	emit(stopEvent(res))
	return res, err
}

func (r *Runner) runProcess(ctx context.Context, a adapter.Adapter, req backend.Request, emit func(backend.Event)) (backend.Result, error) {
	if err := adapter.Validate(a, &req); err != nil {
		return backend.Result{}, fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	if req.TempDir == "" {
		tmp, err := workspace.Ephemeral(r.opts.TempParent)
		if err != nil {
			return backend.Result{}, err
		}
		defer tmp.Remove()
		req.TempDir = tmp.Dir
	}
	argv, err := a.BuildArgv(&req)
	if err != nil {
		return backend.Result{}, fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	base := r.opts.BaseEnv
	if base == nil {
		base = os.Environ()
	}
	stream := adapter.NewStream(a, &req)
	rec := newRecorder(req.EventMode == backend.EventsFull, r.opts.StdoutLimit)
	spec := supervisor.Spec{
		Argv: argv, Dir: req.Workspace, Env: adapter.Env(a, &req, base), Stdin: adapter.Stdin(a, &req),
		StdoutLimit: r.opts.StdoutLimit, StderrLimit: r.opts.StderrLimit,
		Timeout: cmp.Or(req.Timeout, r.opts.Timeout), IdleTimeout: cmp.Or(req.IdleTimeout, r.opts.IdleTimeout),
		Grace: r.opts.Grace,
		OnStdoutLine: func(line []byte) {
			rec.add(line)
			for _, ev := range stream.Line(line) {
				if ev.Kind != backend.EventStop {
					emit(ev)
				}
			}
		},
	}
	if mode := r.opts.Sandbox; mode != "" && mode != sandbox.Off {
		sb := sandbox.New(sandbox.Config{Mode: sandbox.WorkspaceWrite, WorkDir: req.Workspace, Writable: r.opts.Writable, Network: sandbox.NetworkOn})
		defer sb.Close()
		if st := sb.Status(); !st.Active {
			return backend.Result{}, fmt.Errorf("the CLI agent is to run in the %s sandbox, but %s", mode, st.Reason)
		}
		spec.Confine = func(cmd *exec.Cmd) (func(), error) { return sb.Confine(mode, cmd) }
	}
	out, err := supervisor.Run(ctx, spec)
	if err != nil {
		// The shell's convention for "command not found", as the original reported it.
		res := backend.Result{ExitCode: 127, Stderr: err.Error(), Stopped: string(supervisor.Exited)}
		emit(backend.Event{Kind: backend.EventError, Text: err.Error(), ExitCode: intp(127)})
		emit(stopEvent(res))
		return res, err
	}
	// Parsed even after a timeout or a crash: what the agent said so far is kept.
	res := a.ParseOutput(out.Stdout.Data, &req)
	res.ExitCode, res.Signal, res.Stopped = out.ExitCode, out.Signal, string(out.Reason)
	res.Stdout, res.Stderr = out.Stdout.String(), out.Stderr.String()
	res.StdoutCut, res.StderrCut = out.Stdout.Cut, out.Stderr.Cut
	res.Records, res.RecordsCut = rec.records, rec.cut
	res.Duration = out.Runtime + out.Stopping
	if out.Reason != supervisor.Exited || out.ExitCode != 0 {
		emit(backend.Event{Kind: backend.EventError, Text: failure(out), ExitCode: intp(out.ExitCode)})
	}
	emit(stopEvent(res))
	return res, nil
}

// failure describes a run that did not end well, for the error event.
func failure(out supervisor.Result) string {
	tail := out.Stderr.Data[max(len(out.Stderr.Data)-stderrInEvent, 0):]
	var msg string
	switch out.Reason {
	case supervisor.Exited:
		msg = fmt.Sprintf("agent exited with code %d", out.ExitCode)
		if out.Signal != "" {
			msg = "agent killed by signal " + out.Signal
		}
	case supervisor.Idle:
		msg = "agent stopped: no output for the idle timeout"
	case supervisor.TimedOut:
		msg = "agent stopped: timeout"
	case supervisor.Cancelled:
		msg = "agent stopped: run cancelled"
	}
	if len(tail) > 0 {
		msg += ": " + string(tail)
	}
	return msg
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
