package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/tui/input"
)

// quitWindow is how soon a second Ctrl+C must follow the first to quit. Judgement:
// long enough for a deliberate double press, short enough that a stray one expires.
const quitWindow = 2 * time.Second

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.deskMsg(msg) {
		return m, nil
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.input.SetWidth(msg.Width)
		return m, nil
	case agentEventMsg:
		if msg.gen == m.gen {
			m.apply(msg.ev)
		}
		return m, nil
	case promptDoneMsg:
		if msg.gen == m.gen {
			m.turnDone(msg.res.Err)
			return m, m.notifyTurnEnd(msg.res.Err)
		}
		return m, nil
	case shellDoneMsg:
		if msg.gen == m.gen {
			m.shellDone(msg)
		}
		return m, nil
	case compactDoneMsg:
		if msg.gen == m.gen {
			m.turnDone(msg.err)
			return m, m.notifyTurnEnd(msg.err)
		}
		return m, nil
	case tickMsg:
		if m.busy && msg.gen == m.gen {
			m.frame++
			return m, m.tick()
		}
		return m, nil
	case openedMsg:
		return m, m.opened(msg)
	case switchedMsg:
		if msg.err != nil {
			m.chat.AddError(msg.err.Error())
		} else {
			m.chat.AddNotice(msg.what)
		}
		m.refreshStatus()
		return m, nil
	case savedMsg:
		return m, m.saved(msg)
	case infoMsg:
		m.Show(msg.text)
		return m, nil
	case trustedMsg:
		if msg.err != nil {
			m.chat.AddError(msg.err.Error())
		}
		return m, m.nextStartStep()
	case approvalMsg:
		return m, m.pushApproval(msg)
	case questionMsg:
		return m, m.pushQuestion(msg)
	case input.EditorDoneMsg:
		if msg.Err != nil {
			m.chat.AddError(msg.Err.Error())
		} else {
			m.input.SetValue(msg.Text)
		}
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		if len(m.dialogs) > 0 {
			return m, m.dialogs[0].d.Update(msg)
		}
		_, _, cmd := m.input.Update(msg)
		return m, cmd
	}
	if len(m.dialogs) == 0 {
		_, _, cmd := m.input.Update(msg)
		return m, cmd
	}
	return m, nil
}

func (m *Model) apply(ev agent.Event) {
	defer m.hintTrust(ev) // after the refused call itself is shown
	m.silence.heard(ev)
	switch ev.Kind {
	case agent.EventError:
		m.sawError = true
		m.waitUntil = time.Time{}
	case agent.EventUsage:
		if ev.Stats != nil {
			m.stats.Stats = *ev.Stats
		}
		m.refreshRate()
		return
	case agent.EventRateLimitWait:
		m.waitUntil = time.Now().Add(time.Duration(ev.WaitSeconds * float64(time.Second)))
		m.waitFor = ev.Text
	case agent.EventTextDelta, agent.EventReasoningDelta, agent.EventToolCallStart, agent.EventTurnEnd:
		m.waitUntil = time.Time{} // the model answers: the wait is over
	}
	m.chat.Apply(ev)
}

func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if s == "ctrl+c" {
		return m.ctrlCPressed()
	}
	m.ctrlC = time.Time{}
	if len(m.dialogs) > 0 {
		return m.dialogKey(k)
	}
	switch s {
	case "esc":
		if m.input.MenuOpen() {
			m.input.CloseMenu()
			return nil
		}
		if m.shell && m.cancel != nil {
			m.cancel() // the bash tool kills the command's process group
			return nil
		}
		if m.busy && m.conv != nil {
			m.conv.Cancel()
			return nil
		}
		return nil
	case "shift+tab":
		return m.cycleProfile()
	case "ctrl+o":
		m.chat.ToggleTools()
		return nil
	case "ctrl+t":
		m.chat.ToggleReasoning()
		return nil
	case "ctrl+g":
		return m.input.OpenEditor()
	case "pgup", "shift+up":
		m.chat.ScrollUp(pick(s == "pgup", max(m.chatHeight()-2, 1), 1))
		return nil
	case "pgdown", "shift+down":
		m.chat.ScrollDown(pick(s == "pgdown", max(m.chatHeight()-2, 1), 1))
		return nil
	case "ctrl+home":
		m.chat.Top()
		return nil
	case "ctrl+end":
		m.chat.Bottom()
		return nil
	case "ctrl+d":
		if m.input.Value() == "" {
			return m.quitNow()
		}
	case "ctrl+z":
		// As in a shell: back to it, the UI and a running turn stopped until fg.
		return tea.Suspend
	}
	text, sent, cmd := m.input.Update(k)
	if sent {
		return tea.Batch(cmd, m.submit(text))
	}
	return cmd
}

// ctrlCPressed clears the input, or arms quitting; a second press quits.
func (m *Model) ctrlCPressed() tea.Cmd {
	if len(m.dialogs) == 0 && m.input.Value() != "" {
		m.input.Reset()
		m.ctrlC = time.Now()
		return nil
	}
	if !m.ctrlC.IsZero() && time.Since(m.ctrlC) < quitWindow {
		return m.quitNow()
	}
	m.ctrlC = time.Now()
	return nil
}

func (m *Model) quitNow() tea.Cmd {
	m.quit = true
	if m.conv != nil {
		m.conv.Cancel()
	}
	if m.shell && m.cancel != nil {
		m.cancel()
	}
	m.dropTurnDialogs()
	return tea.Quit
}

func (m *Model) cycleProfile() tea.Cmd {
	if m.conv == nil || m.busy {
		m.chat.AddNotice("the profile can change once the agent is idle")
		return nil
	}
	conv := m.conv
	return func() tea.Msg {
		name, err := conv.NextProfile()
		return switchedMsg{what: "agent profile: " + name, err: err}
	}
}

func (m *Model) dialogKey(k tea.KeyPressMsg) tea.Cmd {
	top := m.dialogs[0]
	cmd := top.d.Update(k)
	if !top.d.Done() {
		return cmd
	}
	m.dialogs = m.dialogs[1:]
	return tea.Batch(cmd, top.onDone(m))
}

func pick[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}
