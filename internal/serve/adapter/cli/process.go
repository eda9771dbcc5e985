package cli

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/supervisor"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// stderrInEvent is how much of stderr an error event carries: its end, where the
// reason is. The whole capture is in the Result.
const stderrInEvent = 500

// RunProcess runs req's CLI agent through a, as a process supervised as req.Host
// says; it is every adapter's Run. What prevented the start is an error (a refusal
// wrapping backend.ErrInvalidRequest, both marked backend.NotStarted; a missing
// binary wrapping supervisor.ErrNotFound, as exit code 127); an agent that failed
// is a Result with its exit code and stderr, and an error event.
func RunProcess(ctx context.Context, a Adapter, req *backend.Request, emit func(backend.Event)) (backend.Result, error) {
	host := req.Host
	if err := Validate(a, req); err != nil {
		return backend.Result{}, backend.NotStarted(fmt.Errorf("%w: %w", backend.ErrInvalidRequest, err))
	}
	if req.TempDir == "" {
		tmp, err := workspace.Ephemeral(host.TempParent)
		if err != nil {
			return backend.Result{}, backend.NotStarted(err)
		}
		defer tmp.Remove()
		req.TempDir = tmp.Dir
	}
	argv, err := a.BuildArgv(req)
	if err != nil {
		return backend.Result{}, backend.NotStarted(fmt.Errorf("%w: %w", backend.ErrInvalidRequest, err))
	}
	base := host.BaseEnv
	if base == nil {
		base = os.Environ()
	}
	stream := NewStream(a, req)
	rec := newRecorder(req.EventMode == backend.EventsFull, host.StdoutLimit)
	spec := supervisor.Spec{
		Argv: argv, Dir: req.Workspace, Env: Env(a, req, base), Stdin: Stdin(a, req),
		StdoutLimit: host.StdoutLimit, StderrLimit: host.StderrLimit,
		Timeout: cmp.Or(req.Timeout, host.Timeout), IdleTimeout: cmp.Or(req.IdleTimeout, host.IdleTimeout),
		Grace: host.Grace,
		OnStdoutLine: func(line []byte) {
			rec.add(line)
			for _, ev := range stream.Line(line) {
				emit(ev)
			}
		},
	}
	if mode := sandbox.Mode(host.Sandbox); mode != "" && mode != sandbox.Off {
		sb := sandbox.New(sandbox.Config{Mode: sandbox.WorkspaceWrite, WorkDir: req.Workspace, Writable: host.Writable, Network: sandbox.NetworkOn})
		defer sb.Close()
		if st := sb.Status(); !st.Active {
			return backend.Result{}, backend.NotStarted(fmt.Errorf("the CLI agent is to run in the %s sandbox, but %s", mode, st.Reason))
		}
		spec.Confine = func(cmd *exec.Cmd) (func(), error) { return sb.Confine(mode, cmd) }
	}
	out, err := supervisor.Run(ctx, spec)
	if err != nil {
		// The shell's convention for "command not found", as the original reported it.
		return backend.Result{ExitCode: 127, Stderr: err.Error(), Stopped: string(supervisor.Exited)}, err
	}
	// Parsed even after a timeout or a crash: what the agent said so far is kept.
	res := a.ParseOutput(out.Stdout.Data, req)
	res.ExitCode, res.Signal, res.Stopped = out.ExitCode, out.Signal, string(out.Reason)
	res.Stdout, res.Stderr = out.Stdout.String(), out.Stderr.String()
	res.StdoutCut, res.StderrCut = out.Stdout.Cut, out.Stderr.Cut
	res.Records, res.RecordsCut = rec.records, rec.cut
	res.Duration = out.Runtime + out.Stopping
	if out.Reason != supervisor.Exited || out.ExitCode != 0 {
		code := out.ExitCode
		emit(backend.Event{Kind: backend.EventError, Text: failure(out), ExitCode: &code})
	}
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
