package mcp

import (
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"
)

// brokenPipe is a server's stdin after the server closed its end.
type brokenPipe struct{}

func (brokenPipe) Write([]byte) (int, error) { return 0, syscall.EPIPE }
func (brokenPipe) Close() error              { return nil }

// A write that finds the server gone reports how it ended, not the broken
// pipe: the first message to a server that dies at start is a write, and it
// may fail before the reader sees stdout close.
func TestWriteToAnExitedServerSaysHowItEnded(t *testing.T) {
	t.Parallel()
	p := &process{stderr: &tail{max: stderrTail}, exited: make(chan struct{})}
	_, _ = p.stderr.Write([]byte("missing API key FOO\n"))
	w := &stdinWriter{p: p, w: brokenPipe{}, grace: 10 * time.Millisecond}
	go func() {
		time.Sleep(50 * time.Millisecond) // reaped a little after the write failed
		p.err = errors.New("exit status 3")
		close(p.exited)
	}()
	_, err := w.Write([]byte("{}\n"))
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "missing API key FOO") {
		t.Fatalf("Write = %v, want the exit status and the end of stderr", err)
	}
	if got := p.fail(nil); got != err {
		t.Errorf("the failure recorded is %v, want the write's %v", got, err)
	}
}

// A server still running when its stdin breaks is not waited on for ever.
func TestWriteToABrokenPipeOfALiveServerGivesUp(t *testing.T) {
	t.Parallel()
	p := &process{stderr: &tail{max: stderrTail}, exited: make(chan struct{})}
	w := &stdinWriter{p: p, w: brokenPipe{}, grace: 10 * time.Millisecond}
	start := time.Now()
	_, err := w.Write([]byte("{}\n"))
	if !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("Write = %v, want the broken pipe", err)
	}
	if d := time.Since(start); d > exitAfterEOF+time.Second {
		t.Errorf("Write took %v", d)
	}
}
