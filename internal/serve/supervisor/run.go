package supervisor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/etalab-ia/albert-code/internal/proctrack"
	"github.com/etalab-ia/albert-code/internal/sandbox"
)

// drainWait bounds how long the readers may take once the group is gone. Only a
// process that left the group (setsid) and kept our pipes can hold them open; it must
// not hold the run too.
const drainWait = 2 * time.Second

// Run starts spec.Argv and returns when it has ended and its process group is gone.
// The only error is a failure to start (a *StartError, wrapping ErrNotFound when the
// program is missing); everything after the start is described by the Result.
func Run(ctx context.Context, spec Spec) (Result, error) {
	if len(spec.Argv) == 0 || spec.Argv[0] == "" {
		return Result{}, &StartError{Program: "(none)", Err: errors.New("empty argv")}
	}
	spec = withDefaults(spec)
	if err := ctx.Err(); err != nil {
		return Result{Reason: reasonFor(ctx), ExitCode: -1}, nil
	}

	p, err := startProcess(spec)
	if err != nil {
		return Result{}, err
	}
	res := Result{Started: p.started}
	// The run's sink, if any, keeps the group on record while it may have
	// processes, so that a server that dies now can kill them at its next start.
	group := proctrack.Started(ctx, p.pgid)

	leaderDone := make(chan struct{})
	go func() {
		_ = p.cmd.Wait() // a non-zero exit is a result, read from ProcessState below
		close(leaderDone)
	}()

	res.Reason = watch(ctx, spec, leaderDone, p.activity)
	stopStart := time.Now()
	select {
	case <-leaderDone:
		res.Runtime = time.Since(p.started)
		// The agent is gone; anything of its group still running is a straggler
		// (a server it started in the background, a tool it did not wait for).
		if groupAlive(p.pgid) {
			res.Stragglers = true
			res.Killed, res.Leftover = stopGroup(p.pgid, spec.Grace, leaderDone)
		}
	default:
		res.Killed, res.Leftover = stopGroup(p.pgid, spec.Grace, leaderDone)
		res.Runtime = time.Since(p.started)
	}
	if res.Stragglers || res.Reason != Exited {
		res.Stopping = time.Since(stopStart)
	}
	if res.Leftover == nil {
		proctrack.Ended(ctx, group)
	}
	p.drain()

	res.ExitCode = -1
	select {
	case <-leaderDone:
		res.ExitCode, res.Signal = exitStatus(p.cmd.ProcessState)
	default: // unkillable (res.Leftover says so): its status is unknown
	}
	res.Stdout, res.Stderr, res.LinesCut = p.stdout.output(), p.stderr.output(), p.lines.cut
	return res, nil
}

func withDefaults(s Spec) Spec {
	if s.StdoutLimit <= 0 {
		s.StdoutLimit = DefaultStdoutLimit
	}
	if s.StderrLimit <= 0 {
		s.StderrLimit = DefaultStderrLimit
	}
	if s.MaxLineBytes <= 0 {
		s.MaxLineBytes = DefaultMaxLineBytes
	}
	if s.Grace <= 0 {
		s.Grace = DefaultGrace
	}
	return s
}

// watch waits for the process to exit or for a reason to stop it.
func watch(ctx context.Context, spec Spec, leaderDone <-chan struct{}, activity <-chan struct{}) Reason {
	var timeout, idle <-chan time.Time
	if spec.Timeout > 0 {
		t := time.NewTimer(spec.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var idleTimer *time.Timer
	if spec.IdleTimeout > 0 {
		idleTimer = time.NewTimer(spec.IdleTimeout)
		defer idleTimer.Stop()
		idle = idleTimer.C
	}
	for {
		select {
		case <-leaderDone:
			return Exited
		case <-ctx.Done():
			return reasonFor(ctx)
		case <-timeout:
			return TimedOut
		case <-idle:
			return Idle
		case <-activity:
			if idleTimer != nil {
				idleTimer.Reset(spec.IdleTimeout)
			}
		}
	}
}

func reasonFor(ctx context.Context) Reason {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return TimedOut
	}
	return Cancelled
}

// process is a started command and the goroutines that feed and read it.
type process struct {
	cmd      *exec.Cmd
	pgid     int
	started  time.Time
	activity chan struct{}
	stdout   *capture
	stderr   *capture
	lines    *lineSplitter
	pipes    []*os.File // our ends, closed by drain
	readers  sync.WaitGroup
	feeder   sync.WaitGroup
}

func startProcess(spec Spec) (*process, error) {
	cmd := exec.Command(spec.Argv[0], spec.Argv[1:]...)
	cmd.Dir, cmd.Env = spec.Dir, spec.Env
	// Its own group: a stop reaches the agent's tools, and a signal the agent sends
	// to its group cannot reach the server.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}

	p := &process{
		cmd:      cmd,
		activity: make(chan struct{}, 1),
		stdout:   newCapture("stdout", spec.StdoutLimit),
		stderr:   newCapture("stderr", spec.StderrLimit),
		lines:    &lineSplitter{onLine: spec.OnStdoutLine, max: spec.MaxLineBytes},
	}
	// Pipes of our own rather than cmd.StdoutPipe: cmd.Wait then returns when the
	// agent exits, even if a grandchild still holds the write ends.
	var childEnds []*os.File
	closeAll := func() {
		for _, f := range append(childEnds, p.pipes...) {
			f.Close()
		}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, &StartError{Program: spec.Argv[0], Err: err}
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, &StartError{Program: spec.Argv[0], Err: err}
	}
	p.pipes = append(p.pipes, outR, errR)
	childEnds = append(childEnds, outW, errW)
	cmd.Stdout, cmd.Stderr = outW, errW
	var inW *os.File
	if spec.Stdin != nil {
		inR, w, err := os.Pipe()
		if err != nil {
			closeAll()
			return nil, &StartError{Program: spec.Argv[0], Err: err}
		}
		inW = w
		p.pipes = append(p.pipes, inW)
		childEnds = append(childEnds, inR)
		cmd.Stdin = inR
	}

	confine := spec.Confine
	if confine == nil {
		confine = sandbox.Guard
	}
	release, err := confine(cmd)
	if err == nil {
		err = cmd.Start()
		release()
	}
	if err != nil {
		closeAll()
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			err = fmt.Errorf("%w: %w", ErrNotFound, err)
		}
		return nil, &StartError{Program: spec.Argv[0], Err: err}
	}
	p.started = time.Now()
	p.pgid = cmd.Process.Pid
	for _, f := range childEnds {
		f.Close() // the child has its copies; ours would keep the pipes open forever
	}

	p.readers.Add(2)
	go p.read(outR, func(b []byte) {
		p.stdout.Write(b)
		if p.lines.onLine != nil {
			p.lines.Write(b)
		}
	})
	go p.read(errR, p.stderr.Write)
	if inW != nil {
		p.feeder.Add(1)
		go func() {
			defer p.feeder.Done()
			// An agent that exits without reading its prompt gives EPIPE: not our error.
			_, _ = io.Copy(inW, spec.Stdin)
			inW.Close()
		}()
	}
	return p, nil
}

func (p *process) read(f *os.File, sink func([]byte)) {
	defer p.readers.Done()
	buf := make([]byte, 64<<10)
	for {
		n, err := f.Read(buf)
		if n > 0 {
			sink(buf[:n])
			select {
			case p.activity <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// drain waits for the readers to reach the end of the streams, then closes our pipe
// ends; a reader still blocked after drainWait is released by the close.
func (p *process) drain() {
	done := make(chan struct{})
	go func() { p.readers.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(drainWait):
	}
	for _, f := range p.pipes {
		f.Close()
	}
	<-done
	p.feeder.Wait()
	if p.lines.onLine != nil {
		p.lines.flush()
	}
}

func exitStatus(st *os.ProcessState) (code int, signal string) {
	if st == nil {
		return -1, ""
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, ws.Signal().String()
	}
	return st.ExitCode(), ""
}
