// Package supervisor runs one CLI agent process the way a server needs it run: in its
// own process group, with its output captured under byte caps, a total and an idle
// timeout, and a stop that takes the whole group down (SIGTERM, a grace period, then
// SIGKILL) and waits until nothing of it is left. The original killed only the direct
// child, so the agent's tool subprocesses outlived every cancel.
package supervisor

import (
	"errors"
	"io"
	"os/exec"
	"time"
)

// Spec describes one process to run.
type Spec struct {
	// Argv is the program and its arguments; Argv[0] is looked up in PATH.
	Argv []string
	// Dir is the working directory; empty means the server's own.
	Dir string
	// Env is the full environment; nil inherits the server's.
	Env []string
	// Stdin is copied to the process and then closed; nil gives it /dev/null. It
	// should be in memory (the prompt): Run waits for the copy, and a reader that
	// blocks would hold it.
	Stdin io.Reader

	// StdoutLimit and StderrLimit are the bytes kept of each stream (head and tail,
	// the middle is cut and counted). Zero means DefaultStdoutLimit / DefaultStderrLimit.
	StdoutLimit, StderrLimit int
	// OnStdoutLine, when set, sees every stdout line in order (without its newline),
	// whatever the cap kept: streaming parsers read everything. It runs on the reading
	// goroutine and must not keep the slice. Lines longer than MaxLineBytes are cut.
	OnStdoutLine func(line []byte)
	// MaxLineBytes bounds one line given to OnStdoutLine; zero means DefaultMaxLineBytes.
	MaxLineBytes int

	// Timeout bounds the whole run; IdleTimeout bounds the time without any output on
	// stdout or stderr. Zero disables either.
	Timeout, IdleTimeout time.Duration
	// Grace is how long the group has between SIGTERM and SIGKILL; zero means DefaultGrace.
	Grace time.Duration
	// Confine readies the command, built but not started, to run in an OS sandbox
	// (sandbox.Sandbox.Confine); nil runs it under the sandbox's guardian alone, so
	// a stop and serve's death reach every process it started.
	Confine func(cmd *exec.Cmd) (release func(), err error)
}

// Defaults chosen by judgement: an agent's NDJSON for a long session is a few MB, and
// stderr matters only for its last lines; a line is one JSON record, rarely over 1 MB.
const (
	DefaultStdoutLimit  = 16 << 20
	DefaultStderrLimit  = 1 << 20
	DefaultMaxLineBytes = 8 << 20
	// DefaultGrace lets an agent flush its session file on SIGTERM; Node CLIs take
	// well under a second, 5 s leaves room for a slow disk.
	DefaultGrace = 5 * time.Second
)

// Reason says why a run stopped.
type Reason string

const (
	// Exited: the process ended on its own (any exit code).
	Exited Reason = "exited"
	// Cancelled: the context was cancelled.
	Cancelled Reason = "cancelled"
	// TimedOut: Spec.Timeout, or the context's deadline, passed.
	TimedOut Reason = "timeout"
	// Idle: no output for Spec.IdleTimeout.
	Idle Reason = "idle"
)

// Result is what a finished run left behind.
type Result struct {
	Reason Reason
	// ExitCode is the process's exit status, or -1 when a signal ended it.
	ExitCode int
	// Signal names the signal that ended the process ("terminated", "killed"), if any.
	Signal string
	Stdout Output
	Stderr Output
	// LinesCut counts stdout lines longer than MaxLineBytes, given cut to OnStdoutLine.
	LinesCut int

	Started time.Time
	// Runtime runs from the start to the main process's exit.
	Runtime time.Duration
	// Stopping is the time spent taking the group down after a stop or, when the
	// process exited leaving children behind, after its exit.
	Stopping time.Duration
	// Killed is true when SIGTERM was not enough and the group got SIGKILL.
	Killed bool
	// Stragglers is true when processes of the group outlived the main process and
	// had to be stopped.
	Stragglers bool
	// Leftover is set when the group could not be confirmed gone (a process stuck in
	// uninterruptible sleep); the server should log it.
	Leftover error
}

// Output is one captured stream.
type Output struct {
	// Data is the head and the tail of the stream; when bytes were cut, a marker line
	// between them says how many.
	Data []byte
	// Total is the number of bytes the process wrote; Cut how many are not in Data.
	Total, Cut int64
}

// String returns Data as text.
func (o Output) String() string { return string(o.Data) }

// ErrNotFound is returned (wrapped) when the program does not exist or cannot be run.
var ErrNotFound = errors.New("agent binary not found")

// StartError says the process could not be started.
type StartError struct {
	Program string
	Err     error
}

func (e *StartError) Error() string { return "start " + e.Program + ": " + e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }
