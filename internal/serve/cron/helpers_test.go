package cron

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// testWait bounds every wait of these tests; nothing here sleeps on real time.
const testWait = 10 * time.Second

var start = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// fakeAgent answers each request with run, or with "done: <prompt>".
type fakeAgent struct {
	mu   sync.Mutex
	reqs []backend.Request
	run  func(ctx context.Context, req backend.Request) (backend.Result, error)
}

func (a *fakeAgent) Run(ctx context.Context, req backend.Request) (backend.Result, error) {
	a.mu.Lock()
	a.reqs = append(a.reqs, req)
	run := a.run
	a.mu.Unlock()
	if run != nil {
		return run(ctx, req)
	}
	return backend.Result{Text: "done: " + req.Prompt, Stdout: `{"type":"result"}`, Stderr: "warn", Stopped: "exited"}, nil
}

func (a *fakeAgent) requests() []backend.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]backend.Request(nil), a.reqs...)
}

// fakeNotifier records notifications and answers with message ids from 1.
type fakeNotifier struct {
	mu   sync.Mutex
	sent []Notification
	err  error
	ids  int
}

func (n *fakeNotifier) Notify(_ context.Context, note Notification) ([]int64, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sent = append(n.sent, note)
	if n.err != nil {
		return nil, n.err
	}
	n.ids++
	return []int64{int64(n.ids)}, nil
}

func (n *fakeNotifier) notifications() []Notification {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]Notification(nil), n.sent...)
}

type fixture struct {
	t        *testing.T
	clock    *ManualClock
	root     *workspace.Root
	locks    *workspace.Locks
	hist     string
	agent    *fakeAgent
	notifier *fakeNotifier
	reports  chan Summary
	cancel   context.CancelFunc
	done     chan error
	sched    *Scheduler
}

// newFixture parses jobsYAML, makes the workspaces named, and builds a scheduler
// on a manual clock stopped at start. Call run to start it.
func newFixture(t *testing.T, jobsYAML string, workspaces ...string) *fixture {
	t.Helper()
	dir := t.TempDir()
	root, err := workspace.NewRoot(filepath.Join(dir, "root"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ws := range workspaces {
		if err := os.MkdirAll(filepath.Join(root.Dir(), ws), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file, err := Parse("cron.yml", []byte(jobsYAML), start)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, clock: NewManualClock(start), root: root, locks: workspace.NewLocks(-1),
		hist: filepath.Join(dir, "cron"), agent: &fakeAgent{}, notifier: &fakeNotifier{}, reports: make(chan Summary, 100)}
	f.sched, err = New(Options{Jobs: file.Jobs, Root: root, Locks: f.locks, Agent: f.agent, HistoryDir: f.hist,
		Notifier: f.notifier, Clock: f.clock, Grace: 10 * time.Second, Report: func(s Summary) { f.reports <- s }})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// run starts the scheduler and waits until it sleeps.
func (f *fixture) run() {
	f.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	f.cancel, f.done = cancel, make(chan error, 1)
	go func() { f.done <- f.sched.Run(ctx) }()
	f.t.Cleanup(func() {
		cancel()
		f.stopped()
	})
	f.asleep()
}

// stopped waits for Run to return, moving the clock past any grace period the
// scheduler may be waiting for.
func (f *fixture) stopped() {
	f.t.Helper()
	deadline := time.After(testWait)
	for {
		select {
		case <-f.done:
			f.done <- nil // later calls return at once
			return
		case <-deadline:
			f.t.Fatal("scheduler did not stop")
		case <-time.After(5 * time.Millisecond):
			f.clock.Advance(time.Hour)
		}
	}
}

// asleep waits until the scheduler has done what is due and sleeps again.
func (f *fixture) asleep() {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	if err := f.clock.WaitForWaiter(ctx); err != nil {
		f.t.Fatal("scheduler never slept:", err)
	}
}

// at moves the clock to start+d and waits for the scheduler to act on it.
func (f *fixture) at(d time.Duration) {
	f.t.Helper()
	f.clock.Set(start.Add(d))
	f.asleep()
}

// report waits for the next recorded tick.
func (f *fixture) report() Summary {
	f.t.Helper()
	select {
	case s := <-f.reports:
		return s
	case <-time.After(testWait):
		f.t.Fatal("no run recorded")
		return Summary{}
	}
}

// summaries reads a job's JSONL summary.
func (f *fixture) summaries(job string) []Summary {
	f.t.Helper()
	file, err := os.Open(filepath.Join(f.hist, job+".jsonl"))
	if err != nil {
		f.t.Fatal(err)
	}
	defer file.Close()
	var out []Summary
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var s Summary
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			f.t.Fatalf("summary line %q: %v", sc.Text(), err)
		}
		out = append(out, s)
	}
	return out
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
