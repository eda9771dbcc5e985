package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/chat"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// loop plays Bubble Tea's part in tests: it runs commands on goroutines and
// feeds their messages, and those the agent sends, to Update on the test's
// goroutine, so the model is only ever touched by one goroutine.
type loop struct {
	t     *testing.T
	m     *Model
	msgs  chan tea.Msg
	quit  bool
	srv   *fakemodel.Server
	vars  map[string]string
	work  string
	convs []*chat.Session
	envs  []*agentenv.Env
}

// newLoop builds a UI whose conversations talk to a fake model playing turns, in a
// fresh home and trusted folder. edit adjusts the options before the UI is built.
func newLoop(t *testing.T, w, h int, edit func(*Options), turns ...fakemodel.Turn) *loop {
	t.Helper()
	return newLoopVars(t, w, h, nil, edit, turns...)
}

// newLoopVars is newLoop with the environment changed by setVars first.
func newLoopVars(t *testing.T, w, h int, setVars func(map[string]string), edit func(*Options), turns ...fakemodel.Turn) *loop {
	t.Helper()
	root := t.TempDir()
	l := &loop{t: t, msgs: make(chan tea.Msg, 256), srv: fakemodel.NewTest(t, fakemodel.Script{Turns: turns}), work: filepath.Join(root, "work")}
	if err := os.MkdirAll(l.work, 0o755); err != nil {
		t.Fatal(err)
	}
	l.vars = map[string]string{
		"HOME": filepath.Join(root, "home"), "ALBERT_CODE_HOME": filepath.Join(root, "home", ".albert-code"),
		"XDG_CONFIG_HOME": filepath.Join(root, "xdg"), "ALBERT_API_KEY": "k", "ALBERT_CODE_BASE_URL": l.srv.URL(),
	}
	if setVars != nil {
		setVars(l.vars)
	}
	o := Options{Color: false, WorkDir: l.work, Open: l.open}
	if edit != nil {
		edit(&o)
	}
	l.m = New(o)
	l.m.SetSender(func(msg tea.Msg) { l.msgs <- msg })
	t.Cleanup(func() {
		for _, c := range l.convs {
			c.Close()
		}
		for _, e := range l.envs {
			e.Close()
		}
	})
	l.handle(tea.WindowSizeMsg{Width: w, Height: h})
	l.run(l.m.Init())
	return l
}

func (l *loop) env() (*agentenv.Env, error) {
	return agentenv.Load(agentenv.Options{WorkDir: l.work, Trust: true,
		LookupEnv: func(k string) (string, bool) { v, ok := l.vars[k]; return v, ok }})
}

func (l *loop) open(r OpenRequest) (*Conversation, error) {
	e, err := l.env()
	if err != nil {
		return nil, err
	}
	c, err := chat.Open(e, chat.Options{Continue: r.Continue, Resume: r.Resume, Approver: r.Approver, Asker: r.Asker})
	if err != nil {
		e.Close()
		return nil, err
	}
	l.convs = append(l.convs, c)
	l.envs = append(l.envs, e)
	return &Conversation{Session: c}, nil
}

func (l *loop) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if msg := cmd(); msg != nil {
			l.msgs <- msg
		}
	}()
}

func (l *loop) handle(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			l.run(c)
		}
		return
	case tea.QuitMsg:
		l.quit = true
		return
	}
	if _, ok := msg.(tickMsg); ok && !l.m.busy {
		return
	}
	_, cmd := l.m.Update(msg)
	l.run(cmd)
}

// until pumps messages until cond holds; it fails the test after a bound.
func (l *loop) until(what string, cond func() bool) {
	l.t.Helper()
	deadline := time.After(15 * time.Second)
	for !cond() {
		select {
		case msg := <-l.msgs:
			l.handle(msg)
		case <-deadline:
			l.t.Fatalf("timed out waiting for %s; screen:\n%s", what, l.screen())
		}
	}
}

func (l *loop) screen() string { return ansi.Strip(l.m.Render()) }

func (l *loop) shows(s string) bool { return strings.Contains(l.screen(), s) }

func (l *loop) waitScreen(s string) {
	l.t.Helper()
	l.until("the screen to show "+s, func() bool { return l.shows(s) })
}

func (l *loop) ready() {
	l.t.Helper()
	l.until("the session to open", func() bool { return l.m.conv != nil && !l.m.opening })
}

func (l *loop) idle() {
	l.t.Helper()
	l.until("the turn to end", func() bool { return !l.m.busy })
}

// press sends keys: names such as "enter", "esc", "ctrl+c", "shift+tab", or text.
func (l *loop) press(keys ...string) {
	for _, k := range keys {
		for _, msg := range keyMsgs(k) {
			l.handle(msg)
		}
	}
}

func (l *loop) typeLine(text string) { l.press(text, "enter") }

func keyMsgs(k string) []tea.Msg {
	named := map[string]tea.KeyPressMsg{
		"enter":     {Code: tea.KeyEnter},
		"esc":       {Code: tea.KeyEscape},
		"tab":       {Code: tea.KeyTab},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
		"up":        {Code: tea.KeyUp},
		"down":      {Code: tea.KeyDown},
		"pgup":      {Code: tea.KeyPgUp},
		"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl},
		"ctrl+o":    {Code: 'o', Mod: tea.ModCtrl},
		"ctrl+end":  {Code: tea.KeyEnd, Mod: tea.ModCtrl},
	}
	if m, ok := named[k]; ok {
		return []tea.Msg{m}
	}
	var out []tea.Msg
	for _, r := range k {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}
