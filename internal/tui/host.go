package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/session"
	"github.com/etalab-ia/albert-code/internal/slash"
	"github.com/etalab-ia/albert-code/internal/tui/dialog"
	"github.com/etalab-ia/albert-code/internal/tui/input"
)

// The Model is the slash commands' host. Commands run inside Update: anything that
// waits on the disk or the model is queued in m.pending as a tea.Cmd.

var errNotOpen = errors.New("the session is not open yet")

func (m *Model) Face() slash.Face { return slash.FaceTUI }
func (m *Model) Show(markdown string) {
	m.chat.AddInfo(markdown)
	if m.opening && m.conv != nil {
		// A reopen (/reload, a saved setting) clears the chat: show it again after.
		m.carried = append(m.carried, markdown)
	}
}
func (m *Model) Quit() { m.pending = append(m.pending, m.quitNow()) }

func (m *Model) later(c tea.Cmd) { m.pending = append(m.pending, c) }

func (m *Model) idle(what string) error {
	if m.conv == nil {
		return errNotOpen
	}
	if m.busy {
		return fmt.Errorf("%s waits until the agent is idle: press esc to interrupt it", what)
	}
	return nil
}

func (m *Model) Clear(context.Context) error {
	if err := m.idle("/clear"); err != nil {
		return err
	}
	if err := m.conv.Clear(); err != nil {
		return err
	}
	m.gen++
	m.shellNotes = nil // they belonged to the previous conversation
	m.chat.Clear()
	m.refreshStatus()
	m.chat.AddNotice("new conversation; the previous one is saved (/resume)")
	return nil
}

func (m *Model) Compact(_ context.Context, instructions string) error {
	if err := m.idle("/compact"); err != nil {
		return err
	}
	conv, gen := m.conv, m.gen
	m.later(m.startTurn(func(ctx context.Context, emit func(agent.Event)) tea.Msg {
		return compactDoneMsg{err: conv.Compact(ctx, instructions, emit), gen: gen}
	}))
	return nil
}

// RunSkill runs /skill-name as a prompt: the skill's instructions and the request.
func (m *Model) RunSkill(_ context.Context, name, request string) error {
	if err := m.idle("/" + name); err != nil {
		return err
	}
	conv, gen := m.conv, m.gen
	m.later(m.startTurn(func(ctx context.Context, emit func(agent.Event)) tea.Msg {
		return promptDoneMsg{res: conv.RunSkill(ctx, name, request, emit), gen: gen}
	}))
	return nil
}

func (m *Model) Reload(context.Context) error {
	if err := m.idle("/reload"); err != nil {
		return err
	}
	// Reopening the session reads the configuration, profiles and AGENTS.md again
	// and keeps the conversation, which is on disk.
	m.later(m.openConversation(OpenRequest{Resume: m.conv.ID()}))
	return nil
}

func (m *Model) Resume(_ context.Context, id string) error {
	if err := m.idle("/resume"); err != nil {
		return err
	}
	m.later(m.openConversation(OpenRequest{Resume: id}))
	return nil
}

func (m *Model) Models() []slash.Choice {
	if m.conv == nil {
		return nil
	}
	var out []slash.Choice
	for _, mo := range m.conv.Models() {
		out = append(out, slash.Choice{Name: mo.Name, Description: mo.Provider + " · " + mo.WireName, Current: mo.Name == m.model})
	}
	return out
}

func (m *Model) SetModel(_ context.Context, name string) error {
	if err := m.idle("/model"); err != nil {
		return err
	}
	conv := m.conv
	m.later(func() tea.Msg { return switchedMsg{what: "model: " + name, err: conv.SetModel(name)} })
	return nil
}

func (m *Model) Profiles() []slash.Choice {
	if m.conv == nil {
		return nil
	}
	ps, _ := m.conv.Profiles()
	var out []slash.Choice
	for _, p := range ps {
		out = append(out, slash.Choice{Name: p.Name, Description: p.Description, Current: p.Name == m.profile})
	}
	return out
}

func (m *Model) SetProfile(_ context.Context, name string) error {
	if err := m.idle("/agent"); err != nil {
		return err
	}
	conv := m.conv
	m.later(func() tea.Msg { return switchedMsg{what: "agent profile: " + name, err: conv.SetProfile(name)} })
	return nil
}

// Pick opens the picker for "model", "agent" or "session".
func (m *Model) Pick(what string) {
	var items []dialog.Item
	sel := 0
	var choices []slash.Choice
	switch what {
	case "model":
		choices = m.Models()
	case "agent":
		choices = m.Profiles()
	case "session":
		m.pickSession()
		return
	}
	for i, c := range choices {
		items = append(items, dialog.Item{Label: c.Name, Detail: c.Description, Value: c.Name})
		if c.Current {
			sel = i
		}
	}
	p := dialog.NewPicker(m.theme, "Choose the "+what, items, sel)
	m.pushDialog(p, func(m *Model) tea.Cmd {
		c := p.Chosen()
		switch {
		case c == nil:
			return nil
		case what == "model":
			return m.pickModelScope(c.Value)
		}
		return m.runLater("/" + what + " " + c.Value)
	}, nil)
}

func (m *Model) pickSession() {
	if m.conv == nil {
		m.chat.AddError(errNotOpen.Error())
		return
	}
	metas, err := m.conv.ListSessions()
	var broken *session.ListError
	if err != nil && !errors.As(err, &broken) {
		m.chat.AddError(err.Error())
		return
	}
	var items []dialog.Item
	for _, s := range metas {
		if s.ID == m.conv.ID() || s.MessageCount == 0 {
			continue // an empty session, left before its first prompt, has nothing to resume
		}
		title := s.Title
		if title == "" {
			title = "(no prompt yet)"
		}
		detail := fmt.Sprintf("%s · %s · %s", s.UpdatedAt.Local().Format("2006-01-02 15:04"), countOf(s.MessageCount, "message"), s.ID[:min(8, len(s.ID))])
		items = append(items, dialog.Item{Label: title, Detail: detail, Value: s.ID})
	}
	if len(items) == 0 {
		m.chat.AddNotice("no other saved session in this folder")
		return
	}
	p := dialog.NewPicker(m.theme, "Resume a session", items, 0)
	m.pushDialog(p, func(m *Model) tea.Cmd {
		if c := p.Chosen(); c != nil {
			return m.openConversation(OpenRequest{Resume: c.Value})
		}
		return nil
	}, nil)
}

// runLater runs a slash command line as if typed, from a dialog's answer.
func (m *Model) runLater(line string) tea.Cmd {
	if err := m.reg.Run(context.Background(), m, line); err != nil {
		m.chat.AddError(err.Error())
	}
	cmds := m.pending
	m.pending = nil
	return tea.Batch(cmds...)
}

func (m *Model) Status() slash.Status {
	st := slash.Status{Model: m.model, Profile: m.profile, ContextWindow: m.stats.ContextWindow, Stats: m.stats.Stats}
	if m.conv != nil {
		st.SessionID = m.conv.ID()
	}
	return st
}

// ShowQuota asks the server off the UI loop and shows the answer when it comes.
func (m *Model) ShowQuota(ctx context.Context) error {
	if m.conv == nil {
		return fmt.Errorf("/quota: %w", slash.ErrUnavailable)
	}
	conv := m.conv
	m.chat.AddNotice("Asking the server for today's usage…")
	m.later(func() tea.Msg { return infoMsg{text: slash.Preformatted(conv.QuotaText(ctx))} })
	return nil
}

// ShowRPM reads the shared rate-limit state, a local file.
func (m *Model) ShowRPM(context.Context) error {
	if m.conv == nil {
		return fmt.Errorf("/rpm: %w", slash.ErrUnavailable)
	}
	text, err := m.conv.RPMText()
	if err != nil {
		return err
	}
	m.Show(slash.Preformatted(text))
	return nil
}

func (m *Model) ConfigText() (string, error) {
	if m.o.ConfigText == nil {
		return "", errors.New("no configuration to show")
	}
	return m.o.ConfigText()
}

func (m *Model) CopyLastAnswer() error {
	text := m.chat.LastAnswer()
	if strings.TrimSpace(text) == "" {
		return errors.New("no answer to copy yet")
	}
	// OSC 52: the terminal puts it on the clipboard, over SSH too.
	m.later(tea.SetClipboard(text))
	return nil
}

func (m *Model) KeyHelp() string {
	return "- `enter` send · `shift+enter`, `ctrl+j` or a final `\\` new line\n" +
		"- `esc` interrupt the agent · `ctrl+c` twice quit · `ctrl+z` suspend (back with `fg`)\n" +
		"- `shift+tab` next agent profile · `ctrl+g` edit in $EDITOR\n" +
		"- `ctrl+o` show all tool output · `ctrl+t` show reasoning\n" +
		"- `pgup`/`pgdown`, `shift+up`/`shift+down` scroll · `ctrl+home`/`ctrl+end` top/bottom\n" +
		"- `@path` bring a file into the prompt · `/` commands and skills · `up`/`down` prompt history\n" +
		"- `!command` run a shell command in the working folder; the model sees it and its output with your next prompt\n"
}

// completeCommand feeds the "/" completion menu from the registry.
func (m *Model) completeCommand(prefix string) []input.Suggestion {
	var out []input.Suggestion
	for _, c := range m.reg.Complete(slash.FaceTUI, prefix) {
		label := "/" + c.Name
		if c.ArgHint != "" {
			label += " " + c.ArgHint
		}
		out = append(out, input.Suggestion{Text: "/" + c.Name, Label: label, Detail: c.Description})
	}
	return out
}

// countOf says n things in English: "1 message", "2 messages".
func countOf(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
