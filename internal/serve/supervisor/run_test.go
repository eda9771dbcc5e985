package supervisor

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// bounded gives every test a deadline well under go test's: a broken stop must fail
// the test, not hang it.
func bounded(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func sh(script string, args ...string) []string {
	return append([]string{"/bin/sh", "-c", script, "sh"}, args...)
}

func TestExitCodeAndStderrAreKept(t *testing.T) {
	t.Parallel()
	res, err := Run(bounded(t), Spec{Argv: sh(`echo partial; echo "boom: no API key" >&2; exit 3`)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != Exited || res.ExitCode != 3 || res.Signal != "" {
		t.Errorf("reason %s, exit %d, signal %q; want exited, 3, none", res.Reason, res.ExitCode, res.Signal)
	}
	if res.Stdout.String() != "partial\n" || res.Stderr.String() != "boom: no API key\n" {
		t.Errorf("stdout %q, stderr %q", res.Stdout, res.Stderr)
	}
	if res.Runtime <= 0 || res.Started.IsZero() || res.Stragglers || res.Killed {
		t.Errorf("timing or stop fields wrong: %+v", res)
	}
}

func TestPromptGoesOnStdinAndLinesStreamInOrder(t *testing.T) {
	t.Parallel()
	prompt := strings.Repeat("a long prompt line\n", 20000) + "last line without newline"
	var got []string
	res, err := Run(bounded(t), Spec{
		Argv:         []string{"cat"},
		Stdin:        strings.NewReader(prompt),
		OnStdoutLine: func(l []byte) { got = append(got, string(l)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout.String() != prompt {
		t.Fatalf("stdout is not the prompt: %d bytes, want %d", res.Stdout.Total, len(prompt))
	}
	if len(got) != 20001 || got[0] != "a long prompt line" || got[20000] != "last line without newline" {
		t.Errorf("got %d lines, first %q, last %q", len(got), got[0], got[len(got)-1])
	}
}

func TestNoStdinMeansEmptyInput(t *testing.T) {
	t.Parallel()
	res, err := Run(bounded(t), Spec{Argv: []string{"cat"}})
	if err != nil || res.ExitCode != 0 || res.Stdout.Total != 0 {
		t.Fatalf("cat with no stdin: %v, %+v", err, res)
	}
}

func TestHugeOutputIsCappedAndTheCutIsSaid(t *testing.T) {
	t.Parallel()
	var lines, longest int
	res, err := Run(bounded(t), Spec{
		// 3 MB on one line, then a short last line that must survive in the tail.
		Argv:         sh(`head -c 3000000 /dev/zero | tr '\0' x; printf '\n{"type":"result"}\n'`),
		StdoutLimit:  1000,
		MaxLineBytes: 4096,
		OnStdoutLine: func(l []byte) { lines++; longest = max(longest, len(l)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	out := res.Stdout
	if out.Total != 3000000+19 || out.Cut != out.Total-1000 {
		t.Errorf("total %d cut %d", out.Total, out.Cut)
	}
	if !bytes.Contains(out.Data, []byte("bytes of stdout cut here]")) || !bytes.HasSuffix(out.Data, []byte("{\"type\":\"result\"}\n")) {
		t.Errorf("capture lacks the marker or the tail: %q", out.Data)
	}
	if lines != 2 || longest != 4096 || res.LinesCut != 1 {
		t.Errorf("lines %d, longest %d, cut %d; want 2, 4096, 1", lines, longest, res.LinesCut)
	}
}

func TestIdleTimeoutKillsTheWholeGroup(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "grandchild")
	start := time.Now()
	res, err := Run(bounded(t), Spec{
		Argv:        sh(`sleep 300 & echo $! > "$1"; echo started; wait`, pidFile),
		IdleTimeout: 300 * time.Millisecond,
		Grace:       2 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != Idle || res.ExitCode != -1 || res.Signal != "terminated" || res.Killed {
		t.Errorf("reason %s exit %d signal %q killed %v; want idle, -1, terminated, false",
			res.Reason, res.ExitCode, res.Signal, res.Killed)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("idle stop took %v", d)
	}
	assertGone(t, pidFile)
}

func TestTermIgnoredThenKilled(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "grandchild")
	ready := make(chan struct{})
	var once sync.Once
	ctx, cancel := context.WithCancel(bounded(t))
	defer cancel()
	go func() { <-ready; cancel() }()
	res, err := Run(ctx, Spec{
		// SIG_IGN is inherited: neither the shell nor its sleep obey SIGTERM.
		Argv:         sh(`trap '' TERM; sleep 300 & echo $! > "$1"; echo ready; wait`, pidFile),
		Grace:        200 * time.Millisecond,
		OnStdoutLine: func([]byte) { once.Do(func() { close(ready) }) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != Cancelled || !res.Killed || res.Signal != "killed" || res.Leftover != nil {
		t.Errorf("reason %s killed %v signal %q leftover %v", res.Reason, res.Killed, res.Signal, res.Leftover)
	}
	if res.Stopping < 200*time.Millisecond {
		t.Errorf("stopping took %v, less than the grace period", res.Stopping)
	}
	assertGone(t, pidFile)
}

func TestTotalTimeoutWinsOverSteadyOutput(t *testing.T) {
	t.Parallel()
	res, err := Run(bounded(t), Spec{
		Argv:        sh(`while :; do echo tick; sleep 0.05; done`),
		Timeout:     400 * time.Millisecond,
		IdleTimeout: 2 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != TimedOut || !strings.HasPrefix(res.Stdout.String(), "tick\n") {
		t.Errorf("reason %s stdout %q", res.Reason, res.Stdout)
	}
}

func TestContextDeadlineCountsAsTimeout(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	res, err := Run(ctx, Spec{Argv: []string{"sleep", "300"}})
	if err != nil || res.Reason != TimedOut {
		t.Fatalf("err %v reason %s", err, res.Reason)
	}
}

func TestStragglersAreStoppedAfterANormalExit(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "grandchild")
	// The background sleep keeps stdout open: without our own pipes Wait would hang.
	res, err := Run(bounded(t), Spec{Argv: sh(`sleep 300 & echo $! > "$1"; echo done`, pidFile)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != Exited || res.ExitCode != 0 || !res.Stragglers || res.Stdout.String() != "done\n" {
		t.Errorf("%+v", res)
	}
	assertGone(t, pidFile)
}

func TestMissingBinaryIsNotFound(t *testing.T) {
	t.Parallel()
	for _, argv := range [][]string{{"/nonexistent/agent"}, {"no-such-agent-on-path-xyz"}} {
		_, err := Run(bounded(t), Spec{Argv: argv})
		var se *StartError
		if !errors.Is(err, ErrNotFound) || !errors.As(err, &se) || se.Program != argv[0] {
			t.Errorf("%v: err %v, want a StartError wrapping ErrNotFound", argv, err)
		}
	}
	if _, err := Run(bounded(t), Spec{}); err == nil {
		t.Error("empty argv accepted")
	}
}

func TestCancelledBeforeStartRunsNothing(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	marker := filepath.Join(t.TempDir(), "ran")
	res, err := Run(ctx, Spec{Argv: sh(`touch "$1"`, marker)})
	if err != nil || res.Reason != Cancelled {
		t.Fatalf("err %v reason %s", err, res.Reason)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the process ran after a cancel")
	}
}

// assertGone fails unless the pid written in pidFile is dead (absent or a zombie
// waiting for init).
func assertGone(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the script wrote no grandchild pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if syscall.Kill(pid, 0) == nil && !isZombie(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("grandchild %d outlived the run", pid)
	}
}

func isZombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && len(stat) > i+2 && (stat[i+2] == 'Z' || stat[i+2] == 'X')
}

// TestCancelReachesProcessesThatLeftTheGroup: a CLI agent that starts its tools in
// a session of their own (codex does) still loses them on a stop: the guardian
// finds them through the tree, not the group.
func TestCancelReachesProcessesThatLeftTheGroup(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "grandchild")
	ready := make(chan struct{})
	var once sync.Once
	ctx, cancel := context.WithCancel(bounded(t))
	defer cancel()
	go func() { <-ready; cancel() }()
	_, err := Run(ctx, Spec{
		Argv:         sh(`setsid sleep 300 & echo $! > "$1"; echo ready; wait`, pidFile),
		Grace:        time.Second,
		OnStdoutLine: func([]byte) { once.Do(func() { close(ready) }) },
	})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		data, _ := os.ReadFile(pidFile)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		if pid > 0 && (syscall.Kill(pid, 0) != nil || isZombie(pid)) {
			return
		}
		if time.Now().After(deadline) {
			if pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Fatalf("the setsid grandchild %d outlived the cancel", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
