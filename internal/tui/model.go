package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/chat"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
	"github.com/etalab-ia/albert-code/internal/slash"
	"github.com/etalab-ia/albert-code/internal/tui/chatview"
	"github.com/etalab-ia/albert-code/internal/tui/dialog"
	"github.com/etalab-ia/albert-code/internal/tui/input"
	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// Model is the UI's one tea.Model. Sub-components are plain structs it calls.
type Model struct {
	o     Options
	theme *render.Theme
	reg   *slash.Registry
	chat  *chatview.View
	input *input.Input
	br    *bridge

	conv *Conversation
	// trustHinted: the conversation was told how to trust its folder (/trust).
	trustHinted bool
	// silence tracks what the model server last sent, for the status line.
	silence silenceState
	// desk holds the terminal's focus and the update notice (notify.go).
	desk deskState
	// gen counts conversations: messages from an earlier one (before /clear or
	// /resume) are dropped.
	gen     int
	opening bool
	warmed  bool     // the highlighting grammars are loaded
	queued  []string // prompts typed before the conversation was open
	carried []string // shown while the conversation reopens, shown again once open

	busy      bool
	busySince time.Time
	// waitUntil and waitFor are the rate-limit wait in progress: the status line
	// counts it down.
	waitUntil time.Time
	waitFor   string
	// rate is the active model's rate-limit gauge for the footer.
	rate     []ratelimit.Counter
	sawError bool
	cancel   context.CancelFunc
	stats    chat.Stats
	model    string
	profile  string

	// shell is set while a "!" command runs; shellNotes are the finished ones
	// not yet given to the model; shellRuns numbers their widgets.
	shell      bool
	shellNotes []string
	shellRuns  int

	dialogs []pending
	width   int
	height  int
	ctrlC   time.Time // when Ctrl+C was last pressed on an empty input
	frame   int       // spinner frame
	pending []tea.Cmd // commands queued by slash commands
	quit    bool
}

// pending is a queued dialog and what to do with its answer.
type pending struct {
	d      dialog.Dialog
	onDone func(m *Model) tea.Cmd
	// abandon answers for the user when the turn that asked ends first; nil for
	// dialogs that do not belong to a turn.
	abandon func()
}

// Messages the UI sends itself.
type (
	openedMsg struct {
		conv *Conversation
		err  error
	}
	agentEventMsg struct {
		ev  agent.Event
		gen int
	}
	promptDoneMsg struct {
		res agent.Result
		gen int
	}
	compactDoneMsg struct {
		err error
		gen int
	}
	switchedMsg struct {
		what string
		err  error
	}
	savedMsg struct {
		setup *dialog.Setup
		err   error
	}
	trustedMsg struct{ err error }
	infoMsg    struct{ text string }
	tickMsg    struct{ gen int }
)

// New builds the UI model. send delivers messages from other goroutines (the
// agent's events and requests) to the UI loop: Program.Send.
func New(o Options) *Model {
	t := render.NewTheme(o.Color)
	reg := o.Registry
	if reg == nil {
		reg = slash.Default()
	}
	m := &Model{o: o, theme: t, reg: reg, br: &bridge{send: func(tea.Msg) {}}}
	if o.TrustFolder != nil {
		registerTrust(reg)
	}
	m.chat = chatview.New(t, render.NewMarkdown(o.Color))
	m.input = input.New(t, input.Options{History: o.History, WorkDir: o.WorkDir, Commands: m.completeCommand})
	return m
}

// SetSender wires the UI to its program: the agent's goroutines send through it.
func (m *Model) SetSender(send func(tea.Msg)) { m.br.send = send }

// Conversation is the open conversation, nil before it opens; Run closes it.
func (m *Model) Conversation() *Conversation { return m.conv }

// Ready reports whether a conversation is open and takes prompts.
func (m *Model) Ready() bool { return m.conv != nil && !m.opening }

// Busy reports whether a prompt or a compaction is running.
func (m *Model) Busy() bool { return m.busy }

// Init starts the first step: setup, trust question, or opening the conversation.
func (m *Model) Init() tea.Cmd {
	if m.o.InitialPrompt != "" {
		m.queued = append(m.queued, m.o.InitialPrompt)
	}
	return tea.Batch(m.nextStartStep(), m.checkUpdate())
}

// warmDelay lets the first frame reach the terminal (a frame is at most 1/60 s
// away) before the grammars load.
const warmDelay = 100 * time.Millisecond

// warmRenderer loads the highlighting grammars once the first screen is up, so
// the first code block of an answer does not stall a frame; loading them beside
// the start delayed the first paint on two cores.
func (m *Model) warmRenderer() tea.Cmd {
	if m.warmed {
		return nil
	}
	m.warmed = true
	return tea.Tick(warmDelay, func(time.Time) tea.Msg { render.Warm(); return nil })
}

// nextStartStep shows the setup screen or the trust question if they are due,
// else opens the conversation.
func (m *Model) nextStartStep() tea.Cmd {
	if m.o.ShowSetup && m.o.Setup != nil {
		m.o.ShowSetup = false
		return m.openSetup()
	}
	if tr := m.o.Trust; tr != nil {
		m.o.Trust = nil
		return m.askTrust(tr)
	}
	return m.openConversation(OpenRequest{Continue: m.o.Continue, Resume: m.o.Resume})
}

func (m *Model) openConversation(req OpenRequest) tea.Cmd {
	m.opening = true
	req.Approver, req.Asker = m.br, m.br
	open := m.o.Open
	return func() tea.Msg {
		c, err := open(req)
		return openedMsg{conv: c, err: err}
	}
}

func (m *Model) opened(msg openedMsg) tea.Cmd {
	m.opening = false
	if msg.err != nil {
		if errors.Is(msg.err, config.ErrMissingAPIKey) && m.o.Setup != nil {
			m.chat.AddNotice("no API key yet: " + msg.err.Error())
			return m.openSetup()
		}
		m.chat.AddError(msg.err.Error())
		m.carried = nil // the chat was not cleared
		return nil
	}
	if m.conv != nil {
		m.conv.Close()
	}
	m.gen++
	m.conv = msg.conv
	m.shellNotes = nil // they belonged to the previous conversation
	m.chat.Clear()
	m.chat.LoadHistory(m.conv.History())
	for _, w := range m.conv.Warnings() {
		m.chat.AddNotice(w)
	}
	for _, c := range m.carried {
		m.chat.AddInfo(c)
	}
	m.carried = nil
	m.showUpdateNote()
	for _, name := range m.reg.AddSkills(m.conv.Skills()) {
		m.chat.AddNotice(fmt.Sprintf("the skill %q is named like a built-in command, so it is no /%s command; the agent can still load it", name, name))
	}
	m.refreshStatus()
	if m.o.PickSession {
		m.o.PickSession = false
		m.Pick("session")
	}
	cmds := []tea.Cmd{m.warmRenderer()}
	for _, q := range m.queued {
		cmds = append(cmds, m.submit(q))
	}
	m.queued = nil
	return tea.Batch(cmds...)
}

// refreshStatus reads the footer's figures from the conversation.
func (m *Model) refreshStatus() {
	if m.conv == nil {
		return
	}
	m.stats, m.model, m.profile = m.conv.Stats(), m.conv.Model(), m.conv.Profile()
	m.refreshRate()
}

// submit handles a line the user sent: a slash command, a "!" shell command, or
// a prompt.
func (m *Model) submit(text string) tea.Cmd {
	if slash.IsCommand(text) {
		m.chat.AddUser(text)
		if err := m.reg.Run(context.Background(), m, text); err != nil {
			m.chat.AddError(err.Error())
		}
		m.chat.Bottom()
		cmds := m.pending
		m.pending = nil
		return tea.Batch(cmds...)
	}
	if m.conv == nil {
		m.queued = append(m.queued, text)
		m.chat.AddUser(text)
		m.chat.AddNotice("starting… the prompt is sent once the session is open")
		return nil
	}
	if m.busy {
		m.chat.AddNotice("the agent is still working: press esc to interrupt it, then send again")
		m.input.SetValue(text)
		return nil
	}
	if command, ok := shellCommand(text); ok {
		return m.runShell(text, command)
	}
	m.chat.AddUser(text)
	m.chat.Bottom()
	conv, gen, sent := m.conv, m.gen, m.withShellNotes(text)
	return m.startTurn(func(ctx context.Context, emit func(agent.Event)) tea.Msg {
		return promptDoneMsg{res: conv.Prompt(ctx, sent, emit), gen: gen}
	})
}

// startTurn runs work (a prompt or a compaction) off the UI loop, streaming its
// events back.
func (m *Model) startTurn(work func(ctx context.Context, emit func(agent.Event)) tea.Msg) tea.Cmd {
	ctx, cancel := context.WithCancel(context.Background())
	m.busy, m.busySince, m.sawError, m.cancel = true, time.Now(), false, cancel
	gen, send := m.gen, m.br.send
	run := func() tea.Msg {
		defer cancel()
		return work(ctx, func(ev agent.Event) { send(agentEventMsg{ev: ev, gen: gen}) })
	}
	return tea.Batch(run, m.tick())
}

// spinnerEvery paces the busy indicator. Judgement: 10 frames a second reads as
// motion and costs one View per 100 ms.
const spinnerEvery = 100 * time.Millisecond

func (m *Model) tick() tea.Cmd {
	gen := m.gen
	return tea.Tick(spinnerEvery, func(time.Time) tea.Msg { return tickMsg{gen: gen} })
}

// turnDone ends a turn: closes dialogs left by it and reports an error not yet shown.
func (m *Model) turnDone(err error) {
	m.busy = false
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	m.dropTurnDialogs()
	if err != nil && !m.sawError && !errors.Is(err, context.Canceled) {
		m.chat.AddError(err.Error())
	}
	m.refreshStatus()
}
