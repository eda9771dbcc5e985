package telegram

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/faketelegram"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/telegram/tgsend"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// testWait bounds every wait of these tests.
const testWait = 15 * time.Second

const (
	token = "7000001:test-token"
	alice = int64(10)
	chatA = int64(1001)
	chatB = int64(1002)
)

// fakeAgent answers with run, or "echo: <prompt>".
type fakeAgent struct {
	mu   sync.Mutex
	reqs []backend.Request
	run  func(ctx context.Context, req backend.Request) (backend.Result, error)
	// stream, if set, is called instead of run with the events' sink.
	stream func(ctx context.Context, req backend.Request, emit func(backend.Event)) (backend.Result, error)
}

func (a *fakeAgent) Run(ctx context.Context, req backend.Request, emit func(backend.Event)) (backend.Result, error) {
	a.mu.Lock()
	a.reqs = append(a.reqs, req)
	run, stream := a.run, a.stream
	a.mu.Unlock()
	if stream != nil {
		return stream(ctx, req, emit)
	}
	if run != nil {
		return run(ctx, req)
	}
	return backend.Result{Text: "echo: " + req.Prompt, Stopped: "exited"}, nil
}

func (a *fakeAgent) requests() []backend.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]backend.Request(nil), a.reqs...)
}

type fixture struct {
	t      *testing.T
	api    *faketelegram.Server
	bot    *Bot
	agent  *fakeAgent
	root   *workspace.Root
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	opts   Options

	mu     sync.Mutex
	sleeps []time.Duration
}

// sleep is the sender's wait: recorded, not waited, so 429s cost no time.
func (f *fixture) sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.sleeps = append(f.sleeps, d)
	f.mu.Unlock()
	return ctx.Err()
}

// newFixture serves a bot configured by yaml against a fake Bot API; edit
// changes its options before it starts.
func newFixture(t *testing.T, yaml string, edit func(*Options)) *fixture {
	t.Helper()
	dir := t.TempDir()
	settingsPath := filepath.Join(dir, "bot.yml")
	if err := os.WriteFile(settingsPath, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := LoadSettings(settingsPath)
	if err != nil {
		t.Fatal(err)
	}
	ov, err := LoadOverrides(filepath.Join(dir, "overrides.json"))
	if err != nil {
		t.Fatal(err)
	}
	root, err := workspace.NewRoot(filepath.Join(dir, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, api: faketelegram.Start(t, token), agent: &fakeAgent{}, root: root, done: make(chan struct{})}
	f.opts = Options{
		Token: token, APIURL: f.api.URL(), SendOptions: tgsend.Options{Sleep: f.sleep},
		Settings: s, SettingsPath: settingsPath, Overrides: ov, Agent: f.agent, AgentName: "fake",
		Root: root, Locks: workspace.NewLocks(4), Grace: 5 * time.Second,
	}
	if edit != nil {
		edit(&f.opts)
	}
	b, err := New(f.opts)
	if err != nil {
		t.Fatal(err)
	}
	f.bot = b
	f.ctx, f.cancel = context.WithTimeout(context.Background(), 2*testWait)
	go func() {
		defer close(f.done)
		if err := b.Run(f.ctx); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	t.Cleanup(f.stop)
	return f
}

// stop ends the bot and waits for it.
func (f *fixture) stop() {
	f.cancel()
	select {
	case <-f.done:
	case <-time.After(testWait):
		f.t.Error("the bot did not stop")
	}
}

// waitTexts waits for n messages in chat and returns their visible texts.
func (f *fixture) waitTexts(chat int64, n int) []string {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	sent, err := f.api.WaitMessages(ctx, chat, n)
	texts := make([]string, len(sent))
	for i, s := range sent {
		texts[i] = s.Plain
		if texts[i] == "" {
			texts[i] = s.Text
		}
	}
	if err != nil {
		f.t.Fatalf("waiting for %d messages in chat %d: %v; got %q", n, chat, err, texts)
	}
	return texts
}

// last waits for the n-th message in chat and returns its text.
func (f *fixture) last(chat int64, n int) string {
	f.t.Helper()
	texts := f.waitTexts(chat, n)
	return texts[n-1]
}

func contains(t *testing.T, got, want string) {
	t.Helper()
	if !strings.Contains(got, want) {
		t.Errorf("got %q\nwant it to contain %q", got, want)
	}
}
