package app

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// tty runs the real binary in a pseudo-terminal and reads its screen through a
// terminal emulator, as a person would see it.
type tty struct {
	t    *testing.T
	pty  *os.File
	emu  *vt.SafeEmulator
	cmd  *exec.Cmd
	done chan error
	mu   sync.Mutex
	raw  strings.Builder // everything the program wrote, for colour checks
}

const ttyCols, ttyRows = 100, 30

func (h *harness) startTUI(extraEnv []string, args ...string) *tty {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	h.t.Cleanup(cancel)
	cmd := h.command(ctx, args...)
	cmd.Stdin = nil // the pty becomes stdin, stdout and stderr
	cmd.Env = append(append(cmd.Env, "TERM=xterm-256color"), extraEnv...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: ttyRows, Cols: ttyCols})
	if err != nil {
		h.t.Fatal(err)
	}
	tm := &tty{t: h.t, pty: f, emu: vt.NewSafeEmulator(ttyCols, ttyRows), cmd: cmd, done: make(chan error, 1)}
	go func() {
		buf := make([]byte, 32*1024)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				tm.mu.Lock()
				tm.raw.Write(buf[:n])
				tm.mu.Unlock()
				_, _ = tm.emu.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	// The emulator answers the program's queries (terminal modes) through a pipe
	// that must be drained, or its Write blocks. It is never closed: vt's Close
	// races with a pending Read, so this goroutine ends with the test binary.
	go func() { _, _ = io.Copy(f, tm.emu) }()
	go func() { tm.done <- cmd.Wait() }()
	h.t.Cleanup(func() {
		_ = cmd.Process.Kill()
		f.Close()
	})
	return tm
}

// screen is the emulated screen as text.
func (tm *tty) screen() string {
	lines := strings.Split(ansi.Strip(tm.emu.Render()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// waitFor waits until the screen shows want; it fails the test after the timeout.
func (tm *tty) waitFor(want string) {
	tm.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(tm.screen(), want) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	tm.t.Fatalf("the screen never showed %q; it shows:\n%s", want, tm.screen())
}

// send types keys; keystrokes go one write at a time so that Esc is not read as
// the start of an escape sequence.
func (tm *tty) send(keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		if _, err := tm.pty.Write([]byte(k)); err != nil {
			tm.t.Fatal(err)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// typeLine types text then Enter.
func (tm *tty) typeLine(text string) { tm.send(text, "\r") }

// wait waits for the program to exit and returns its exit error.
func (tm *tty) wait() error {
	tm.t.Helper()
	select {
	case err := <-tm.done:
		return err
	case <-time.After(20 * time.Second):
		tm.t.Fatalf("the program did not exit; screen:\n%s", tm.screen())
		return nil
	}
}

func (tm *tty) output() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.raw.String()
}

const (
	keyEsc   = "\x1b"
	keyCtrlC = "\x03"
)

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
