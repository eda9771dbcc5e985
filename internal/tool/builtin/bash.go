package builtin

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/etalab-ia/albert-code/internal/proctrack"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/tool"
)

//go:embed bash.md
var bashDescription string

const (
	// killGrace is how long a timed-out or cancelled command gets between SIGTERM and
	// SIGKILL: enough for a test runner to print its summary, short enough that Esc
	// feels immediate.
	killGrace = 2 * time.Second
	// pipeGrace bounds the wait for output after the shell exits: a background
	// grandchild (`server &`) may hold the pipe open forever.
	pipeGrace = time.Second
	// progressBudget stops streaming to the face after 1 MiB so `yes` cannot flood the
	// event stream; the final result still has the capped head and tail.
	progressBudget = 1 << 20
)

// nonInteractiveEnv keeps commands from waiting on a terminal that is not there:
// pagers, prompts and colour codes all key off these.
var nonInteractiveEnv = []string{
	"CI=true", "NONINTERACTIVE=1", "TERM=dumb", "PAGER=cat", "GIT_PAGER=cat",
	"GIT_TERMINAL_PROMPT=0",
}

// BashParams are the arguments of the bash tool.
type BashParams struct {
	Command     string `json:"command" jsonschema:"the shell command to run"`
	Timeout     int    `json:"timeout,omitempty" jsonschema:"timeout in seconds (the description gives the default and the maximum)"`
	Description string `json:"description,omitempty" jsonschema:"five to ten words saying what the command does, shown to the user"`
}

// Bash runs a command through bash -c (sh when bash is missing) in WorkDir, in its
// own process group so a timeout or cancel kills everything it started.
func Bash(env Env) tool.Tool {
	return tool.New(tool.Def[BashParams]{
		Info: tool.Info{Name: "bash", Description: bashDescriptionFor(env), Kind: tool.KindExecute},
		Run: func(ctx context.Context, call tool.Call, p BashParams) (tool.Result, error) {
			return runBash(ctx, env, call, p)
		},
	})
}

// bashDescriptionFor tells the model the timeouts this configuration really applies
// ([bash] timeout, 300 s by default), not the built-in fallbacks.
func bashDescriptionFor(env Env) string {
	seconds := func(d time.Duration) string { return strconv.Itoa(int(d / time.Second)) }
	return strings.NewReplacer(
		"{{timeout}}", seconds(orDuration(env.BashTimeout, DefaultBashTimeout)),
		"{{max_timeout}}", seconds(orDuration(env.BashMaxTimeout, DefaultBashMaxTimeout)),
	).Replace(bashDescription)
}

func runBash(ctx context.Context, env Env, call tool.Call, p BashParams) (tool.Result, error) {
	if strings.TrimSpace(p.Command) == "" {
		return tool.Errorf("command is empty"), nil
	}
	if p.Timeout < 0 {
		return tool.Errorf("timeout must be a positive number of seconds"), nil
	}
	timeout := orDuration(env.BashTimeout, DefaultBashTimeout)
	if p.Timeout > 0 {
		// A too-long request is clamped rather than refused: a retry would cost a turn.
		timeout = min(time.Duration(p.Timeout)*time.Second, orDuration(env.BashMaxTimeout, DefaultBashMaxTimeout))
	}

	sr, err := RunShell(ctx, env, p.Command, timeout, call.Progress)
	if err != nil {
		return tool.Result{}, err
	}
	return sr.Result(), nil
}

// ShellResult is how a shell command ended. Status is empty when it exited 0;
// otherwise "exit code N" or "killed by signal S", or, when Stopped (its process
// group was killed), "timed out after Ns" or "was cancelled".
type ShellResult struct {
	Output    string
	Truncated bool
	Status    string
	Stopped   bool
}

// Result is the bash tool's answer for r: the status after the output, or a
// stop before it, where the model reads it first.
func (r ShellResult) Result() tool.Result {
	switch {
	case r.Stopped:
		return tool.Result{Output: "command " + r.Status + "; its process group was killed\n\n" + r.Output, IsError: true, Truncated: r.Truncated}
	case r.Status != "":
		return tool.Result{Output: r.Output + "\n\n" + r.Status, IsError: true, Truncated: r.Truncated}
	}
	return tool.Result{Output: r.Output, Truncated: r.Truncated}
}

// RunShell runs command as the bash tool does (bash -c in env's folder, its own
// process group killed on timeout or when ctx ends, output capped and streamed to
// progress); the terminal UI's "!" commands run through it too.
func RunShell(ctx context.Context, env Env, command string, timeout time.Duration, progress func(string)) (ShellResult, error) {
	out := &outputBuffer{max: env.maxOutput(), progress: progress}
	cmd := exec.Command(shell(env), "-c", command)
	cmd.Dir = env.workDir()
	cmd.Env = append(os.Environ(), nonInteractiveEnv...)
	cmd.Stdout, cmd.Stderr = out, out // one writer: exec serialises the writes
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = pipeGrace
	mode := sandbox.ModeFrom(ctx)
	release, err := env.Sandbox.Prepare(ctx, mode, cmd)
	if err != nil {
		return ShellResult{}, err
	}
	checkControl := env.Sandbox.WatchControl(mode)
	err = cmd.Start()
	release()
	if err != nil {
		return ShellResult{}, fmt.Errorf("start %s: %w", command, err)
	}
	// serve records the group in its run store, to kill it after a crash.
	group := proctrack.Started(ctx, cmd.Process.Pid)
	defer proctrack.Ended(ctx, group)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var waitErr error
	var r ShellResult
	select {
	case waitErr = <-done:
	case <-timer.C:
		r.Status, r.Stopped = fmt.Sprintf("timed out after %gs", timeout.Seconds()), true
		waitErr = killGroup(cmd.Process.Pid, done)
	case <-ctx.Done():
		r.Status, r.Stopped = "was cancelled", true
		waitErr = killGroup(cmd.Process.Pid, done)
	}

	r.Output, r.Truncated = out.String()
	if r.Output == "" {
		r.Output = "(no output)"
	}
	if note := env.Sandbox.Explain(mode, r.Output); note != "" {
		r.Output += "\n\n" + note
	}
	if removed := checkControl(); len(removed) > 0 {
		r.Output += fmt.Sprintf("\n\n[sandbox] the command created %s, which configure later runs; %s removed. "+
			"Create such files with the write tool, which asks the user.", strings.Join(removed, ", "), pluralIt(len(removed)))
	}
	if exitErr, ok := waitErr.(*exec.ExitError); ok && exitErr.ExitCode() == sandbox.ExitSetup {
		return ShellResult{}, fmt.Errorf("the sandbox could not start the command: %s", strings.TrimSpace(r.Output))
	}
	if r.Stopped {
		return r, nil
	}
	var exitErr *exec.ExitError
	switch {
	case waitErr == nil || errors.Is(waitErr, exec.ErrWaitDelay):
		// ErrWaitDelay: the shell exited 0 but a background child kept the pipe open.
		return r, nil
	case errors.As(waitErr, &exitErr):
		r.Status = exitStatus(exitErr)
		return r, nil
	default:
		return ShellResult{}, fmt.Errorf("wait for command: %w", waitErr)
	}
}

func pluralIt(n int) string {
	if n == 1 {
		return "it was"
	}
	return "they were"
}

// killGroup sends SIGTERM to the command's whole process group, then SIGKILL after
// killGrace if the shell has not exited, and returns Wait's result. Wait itself
// returns within pipeGrace of the shell's exit thanks to cmd.WaitDelay.
func killGroup(pid int, done <-chan error) error {
	// The group holds the sandbox's guardian, which sends SIGTERM on to the whole
	// tree, also to processes that left the group, and SIGKILL after its own grace.
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case err := <-done:
		return err
	case <-time.After(killGrace + guardianSlack):
		// The guardian did not finish (it was killed, or there is none): kill the
		// group ourselves.
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		return <-done
	}
}

// guardianSlack is how much longer than its own grace the guardian gets to end the
// command before the group is killed from here.
const guardianSlack = time.Second

func exitStatus(e *exec.ExitError) string {
	if ws, ok := e.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("killed by signal %s", ws.Signal())
	}
	return fmt.Sprintf("exit code %d", e.ExitCode())
}

func shell(env Env) string {
	if env.Shell != "" {
		return env.Shell
	}
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "/bin/sh"
}

// outputBuffer collects a command's output in bounded memory: the first two thirds of
// max and the last third, like tool.Cap, however much the command prints. It streams
// each write to progress until progressBudget is spent.
type outputBuffer struct {
	max      int
	progress func(string)

	mu       sync.Mutex
	head     []byte
	tail     []byte // ring of the newest bytes, oldest at tailPos once full
	tailPos  int
	total    int
	streamed int
}

func (b *outputBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total += len(p)
	if b.progress != nil && b.streamed < progressBudget {
		b.streamed += len(p)
		b.progress(string(p))
	}
	headMax, tailMax := b.max*2/3, b.max-b.max*2/3
	rest := p
	if n := min(headMax-len(b.head), len(rest)); n > 0 {
		b.head = append(b.head, rest[:n]...)
		rest = rest[n:]
	}
	for len(rest) > 0 {
		if len(b.tail) < tailMax {
			n := min(tailMax-len(b.tail), len(rest))
			b.tail = append(b.tail, rest[:n]...)
			rest = rest[n:]
			continue
		}
		if len(rest) >= tailMax {
			copy(b.tail, rest[len(rest)-tailMax:])
			b.tailPos = 0
			break
		}
		n := copy(b.tail[b.tailPos:], rest)
		rest = rest[n:]
		b.tailPos = (b.tailPos + n) % tailMax
	}
	return len(p), nil
}

// String returns the output, with a marker in place of the dropped middle, and
// whether anything was dropped.
func (b *outputBuffer) String() (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	tail := append(append([]byte{}, b.tail[b.tailPos:]...), b.tail[:b.tailPos]...)
	kept := len(b.head) + len(tail)
	if kept == b.total {
		return string(b.head) + string(tail), false
	}
	head := b.head
	for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
		if utf8.RuneStart(head[i]) {
			if !utf8.FullRune(head[i:]) {
				head = head[:i] // drop a rune cut in half
			}
			break
		}
	}
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	cut := b.total - len(head) - len(tail)
	return fmt.Sprintf("%s\n[... %d bytes truncated ...]\n%s", head, cut, tail), true
}
