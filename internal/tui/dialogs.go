package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/tui/dialog"
)

// pushDialog queues a dialog; the first in the queue gets the keys.
func (m *Model) pushDialog(d dialog.Dialog, onDone func(m *Model) tea.Cmd, abandon func()) {
	m.dialogs = append(m.dialogs, pending{d: d, onDone: onDone, abandon: abandon})
}

// dropTurnDialogs closes the dialogs a finished or interrupted turn left open.
func (m *Model) dropTurnDialogs() {
	kept := m.dialogs[:0]
	for _, p := range m.dialogs {
		if p.abandon != nil {
			p.abandon()
			continue
		}
		kept = append(kept, p)
	}
	m.dialogs = kept
}

func (m *Model) pushApproval(msg approvalMsg) tea.Cmd {
	a := dialog.NewApproval(m.theme, msg.call).WithFiles(readWorkspaceFile(m.o.WorkDir))
	m.pushDialog(a, func(m *Model) tea.Cmd {
		d := a.Decision()
		msg.reply <- d
		switch {
		case d.Allow && d.ForSession:
			m.chat.AddNotice(fmt.Sprintf("%s allowed for the rest of this session", msg.call.Name))
		case !d.Allow && d.Feedback != "":
			m.chat.AddNotice("denied: " + d.Feedback)
		case !d.Allow:
			m.chat.AddNotice("denied")
		}
		return nil
	}, func() { msg.reply <- agent.Decision{} })
	return m.notifyWaiting(msg.call.Name + " waits for your approval")
}

func (m *Model) pushQuestion(msg questionMsg) tea.Cmd {
	q := dialog.NewQuestion(m.theme, msg.questions)
	m.pushDialog(q, func(*Model) tea.Cmd {
		msg.reply <- questionReply{answers: q.Answers(), declined: q.Declined()}
		return nil
	}, func() { msg.reply <- questionReply{declined: true} })
	return m.notifyWaiting("a question waits for your answer")
}

func (m *Model) openSetup() tea.Cmd {
	st := m.o.Setup
	s := dialog.NewSetup(m.theme, st.Providers, st.Current)
	m.pushDialog(s, m.setupDone(s), nil)
	return nil
}

// setupDone saves the setup screen's answer off the UI loop.
func (m *Model) setupDone(s *dialog.Setup) func(m *Model) tea.Cmd {
	save := m.o.Setup.Save
	return func(m *Model) tea.Cmd {
		if s.Cancelled() {
			if m.conv == nil && !m.opening {
				m.chat.AddNotice("setup skipped: the session opens with the configuration as it is")
				return m.nextStartStep()
			}
			return nil
		}
		p, model, key := s.Result()
		return func() tea.Msg { return savedMsg{setup: s, err: save(p, model, key)} }
	}
}

func (m *Model) saved(msg savedMsg) tea.Cmd {
	if msg.err != nil {
		msg.setup.Retry(msg.err.Error())
		m.pushDialog(msg.setup, m.setupDone(msg.setup), nil)
		return nil
	}
	m.chat.AddNotice("setup saved")
	if m.conv != nil {
		// --setup over a working session: reopen it with the new settings.
		return m.openConversation(OpenRequest{Resume: m.conv.ID()})
	}
	return m.nextStartStep()
}

func (m *Model) askTrust(tr *Trust) tea.Cmd {
	items := []dialog.Item{
		{Label: "1. Yes, trust this folder", Value: "trust"},
		{Label: "2. Not now (ask again next time)", Value: "later"},
		{Label: "3. No, never trust this folder", Value: "never"},
	}
	p := dialog.NewPicker(m.theme, "Do you trust this folder?", items, 0)
	p.NoFilter = true
	p.Intro = []string{
		tr.Dir,
		"",
		"A trusted folder's own configuration, agent profiles and AGENTS.md are read,",
		"and the agent may change its files. Trust only folders whose content you know.",
	}
	m.pushDialog(p, func(*Model) tea.Cmd {
		choice := "later"
		if c := p.Chosen(); c != nil {
			choice = c.Value
		}
		decide := tr.Decide
		return func() tea.Msg {
			switch choice {
			case "trust":
				return trustedMsg{err: decide(true, true)}
			case "never":
				return trustedMsg{err: decide(false, true)}
			}
			return trustedMsg{}
		}
	}, nil)
	return nil
}
