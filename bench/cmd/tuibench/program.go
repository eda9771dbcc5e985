package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/creack/pty"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/chat"
	"github.com/etalab-ia/albert-code/internal/tui"
)

// timed wraps the UI to time View and to report, from inside the UI loop, when
// the session is ready and when a turn ends.
type timed struct {
	*tui.Model
	mu       sync.Mutex
	views    []time.Duration
	updates  []time.Duration
	record   bool
	ready    chan struct{}
	turnDone chan struct{}
	wasBusy  bool
}

func (t *timed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	start := time.Now()
	_, cmd := t.Model.Update(msg)
	d := time.Since(start)
	t.mu.Lock()
	if t.record {
		t.updates = append(t.updates, d)
	}
	t.mu.Unlock()
	if t.Model.Ready() && t.ready != nil {
		close(t.ready)
		t.ready = nil
	}
	if t.Model.Busy() {
		t.wasBusy = true
	} else if t.wasBusy && t.turnDone != nil {
		close(t.turnDone)
		t.turnDone = nil
	}
	return t, cmd
}

func (t *timed) View() tea.View {
	start := time.Now()
	v := t.Model.View()
	d := time.Since(start)
	t.mu.Lock()
	if t.record {
		t.views = append(t.views, d)
	}
	t.mu.Unlock()
	return v
}

func (t *timed) setRecording(on bool) {
	t.mu.Lock()
	t.record = on
	t.mu.Unlock()
}

// timedWriter times each write of the renderer to the terminal.
type timedWriter struct {
	w      io.Writer
	mu     sync.Mutex
	writes []time.Duration
	bytes  []int
	record bool
}

func (w *timedWriter) Write(p []byte) (int, error) {
	start := time.Now()
	n, err := w.w.Write(p)
	d := time.Since(start)
	w.mu.Lock()
	if w.record {
		w.writes, w.bytes = append(w.writes, d), append(w.bytes, n)
	}
	w.mu.Unlock()
	return n, err
}

// uiRun is a UI running in-process on a real pseudo-terminal whose other end
// is drained, like a fast terminal would.
type uiRun struct {
	ui   *timed
	out  *timedWriter
	prog *tea.Program
	done chan error
	ptmx *os.File
	tty  *os.File
}

// startUI opens a UI in a fresh trusted folder, talking to the model at url.
// resume, when longSession, writes a long session and resumes it.
func startUI(url string, resume string, cols, rows int) (*uiRun, func(), error) {
	root, err := os.MkdirTemp("", "tuibench-")
	if err != nil {
		return nil, nil, err
	}
	work := filepath.Join(root, "work")
	vars := map[string]string{"HOME": root, "ALBERT_CODE_HOME": filepath.Join(root, ".albert-code"),
		"XDG_CONFIG_HOME": filepath.Join(root, "xdg"), "ALBERT_API_KEY": "k", "ALBERT_CODE_BASE_URL": url}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, nil, err
	}
	env, err := agentenv.Load(agentenv.Options{WorkDir: work, Trust: true,
		LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }})
	if err != nil {
		return nil, nil, err
	}
	if resume == longSession {
		if resume, err = writeLongSession(env); err != nil {
			return nil, nil, err
		}
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		return nil, nil, err
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		return nil, nil, err
	}
	go func() { _, _ = io.Copy(io.Discard, ptmx) }()
	m := tui.New(tui.Options{Color: true, WorkDir: work, Resume: resume,
		Open: func(r tui.OpenRequest) (*tui.Conversation, error) {
			s, err := chat.Open(env, chat.Options{Continue: r.Continue, Resume: r.Resume, Approver: r.Approver, Asker: r.Asker})
			if err != nil {
				return nil, err
			}
			return &tui.Conversation{Session: s}, nil
		}})
	s := &uiRun{ui: &timed{Model: m, ready: make(chan struct{}), turnDone: make(chan struct{})}, out: &timedWriter{w: tty}, done: make(chan error, 1), ptmx: ptmx, tty: tty}
	s.prog = tea.NewProgram(s.ui, tea.WithInput(nil), tea.WithOutput(s.out), tea.WithWindowSize(cols, rows),
		tea.WithEnvironment([]string{"TERM=xterm-256color", "COLORTERM=truecolor"}))
	m.SetSender(s.prog.Send)
	go func() {
		_, err := s.prog.Run()
		s.done <- err
	}()
	stop := func() {
		s.prog.Quit()
		<-s.done
		if c := m.Conversation(); c != nil {
			c.Close()
		}
		env.Close()
		ptmx.Close()
		tty.Close()
		os.RemoveAll(root)
	}
	select {
	case <-s.ui.ready:
	case err := <-s.done:
		return nil, nil, fmt.Errorf("the UI stopped before the session opened: %v", err)
	case <-time.After(30 * time.Second):
		stop()
		return nil, nil, fmt.Errorf("the session did not open in 30 s")
	}
	return s, stop, nil
}
