package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/sandbox"
)

// stdioTransport starts a server as a child process and speaks newline-delimited
// JSON-RPC on its stdin and stdout. It exists, rather than the SDK's CommandTransport,
// to explain failures: what the server wrote on stdout that is not JSON-RPC, its exit
// status, and the end of its stderr (kept in memory, never shown in a face).
type stdioTransport struct {
	server  string
	command string
	args    []string
	env     []string
	dir     string
	// grace is how long a server may take to exit once its stdin is closed, and
	// again after SIGTERM, before it is killed.
	grace time.Duration
	// sandbox and mode confine the server; explicit are the variables its
	// configuration sets, kept although the scrub would drop them.
	sandbox  *sandbox.Sandbox
	mode     sandbox.Mode
	explicit map[string]string

	mu   sync.Mutex
	proc *process // the latest process started
}

// process is one run of the server.
type process struct {
	cmd    *exec.Cmd
	stderr *tail
	exited chan struct{} // closed once Wait returns
	err    error         // Wait's result, set before exited closes

	mu      sync.Mutex
	failure error // the first reason the connection broke
}

func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	cmd := exec.Command(t.command, t.args...)
	cmd.Env, cmd.Dir = t.env, t.dir
	// Its own process group: a Ctrl+C in the terminal reaches the agent, which
	// then shuts the server down in order instead of both racing.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
	p := &process{cmd: cmd, stderr: &tail{max: stderrTail}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	// A grandchild that keeps stderr open (npx, a shell wrapper) must not keep Wait
	// from returning once the server itself exited.
	cmd.WaitDelay = t.grace
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// An os.Pipe rather than StdoutPipe: Wait must not close the read end while the
	// last answers are still being read.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = outW
	release, err := t.sandbox.Prepare(ctx, t.mode, cmd)
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("start %s: %w", t.command, err)
	}
	cmd.Env = withExplicit(cmd.Env, t.explicit)
	err = cmd.Start()
	release()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("start %s: %w", t.command, err)
	}
	outW.Close()
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.mu.Lock()
	t.proc = p
	t.mu.Unlock()
	r := &frameReader{p: p, in: bufio.NewReaderSize(outR, 64<<10), file: outR, grace: t.grace, maxLine: maxFrameLine}
	w := &stdinWriter{p: p, w: stdin, grace: t.grace}
	return (&sdk.IOTransport{Reader: r, Writer: w}).Connect(ctx)
}

// lastFailure explains why the latest process's connection broke, if it did.
func (t *stdioTransport) lastFailure() error {
	t.mu.Lock()
	p := t.proc
	t.mu.Unlock()
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failure
}

func (p *process) fail(err error) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failure == nil {
		p.failure = err
	}
	return p.failure
}

// exitError describes how the process ended, with the end of its stderr.
func (p *process) exitError() error {
	msg := "exited"
	if p.err != nil {
		msg = "exited with " + p.err.Error()
	}
	if s := p.stderr.String(); s != "" {
		msg += "; its stderr ended with: " + s
	}
	return errors.New(msg)
}

// exitAfterEOF is how long a server that closed its stdout is given to be seen
// exiting, so the error can say how it ended: reaping a process that exited at
// once took over 100 ms on a loaded machine, and the message then lost its exit
// status and stderr.
const exitAfterEOF = 2 * time.Second

// stderrTail is how much of a server's stderr is kept to explain a failure.
const stderrTail = 2 << 10

// maxFrameLine bounds one line from the server, its newline included: the SDK's
// own bound on a message, kept here too since a line is read whole before the SDK
// sees it, so a server that never ends its line cannot fill the memory.
const maxFrameLine = sdk.DefaultMaxLineLength

// frameReader hands the SDK one JSON-RPC line at a time and turns what is not one
// into an error that says what the server wrote.
type frameReader struct {
	p       *process
	in      *bufio.Reader
	file    *os.File
	grace   time.Duration
	maxLine int
	buf     []byte
}

func (r *frameReader) Read(b []byte) (int, error) {
	for len(r.buf) == 0 {
		line, err := r.readLine()
		if errors.Is(err, errFrameTooLong) {
			return 0, r.p.fail(fmt.Errorf("it wrote a line longer than %d bytes on stdout, more than one JSON-RPC message may hold", r.maxLine))
		}
		if len(line) > 0 {
			trimmed := bytes.TrimSpace(line)
			if len(trimmed) > 0 && trimmed[0] != '{' && trimmed[0] != '[' {
				return 0, r.p.fail(fmt.Errorf("it wrote %q on stdout, which is not JSON-RPC (a stdio MCP server must log to stderr)", abbreviate(string(trimmed), 120)))
			}
			r.buf = line
			break
		}
		if err == nil {
			continue
		}
		if errors.Is(err, io.EOF) {
			select {
			case <-r.p.exited:
				return 0, r.p.fail(r.p.exitError())
			case <-time.After(max(r.grace, exitAfterEOF)):
				return 0, r.p.fail(errors.New("it closed its stdout"))
			}
		}
		return 0, err
	}
	n := copy(b, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

func (r *frameReader) Close() error { return r.file.Close() }

var errFrameTooLong = errors.New("line too long")

// readLine reads up to and with the next newline, at most maxLine bytes.
func (r *frameReader) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.in.ReadSlice('\n')
		if len(line)+len(chunk) > r.maxLine {
			return nil, errFrameTooLong
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// stdinWriter closes the server down the way the MCP specification asks: close its
// stdin, wait, SIGTERM, wait, SIGKILL.
type stdinWriter struct {
	p     *process
	w     io.WriteCloser
	grace time.Duration
	once  sync.Once
}

// Write passes b on. A write to a server that already exited fails with a broken
// pipe, which says nothing; the failure is then how the server ended, as the
// reader reports it when it sees the end of stdout first.
func (w *stdinWriter) Write(b []byte) (int, error) {
	n, err := w.w.Write(b)
	if err != nil {
		select {
		case <-w.p.exited:
			return n, w.p.fail(w.p.exitError())
		case <-time.After(max(w.grace, exitAfterEOF)):
		}
	}
	return n, err
}

func (w *stdinWriter) Close() error {
	w.once.Do(func() {
		_ = w.w.Close()
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
			select {
			case <-w.p.exited:
				return
			case <-time.After(w.grace):
			}
			// The whole group: npx and shell wrappers leave the real server as
			// a grandchild.
			_ = syscall.Kill(-w.p.cmd.Process.Pid, sig)
		}
		<-w.p.exited
	})
	return nil
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(strings.ToValidUTF8(string(t.buf), ""))
}

func abbreviate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// withExplicit sets the variables a server's configuration names in env, after the
// scrub: the user wrote them for this server.
func withExplicit(env []string, explicit map[string]string) []string {
	for k, v := range explicit {
		env = append(env, k+"="+v)
	}
	return env
}
