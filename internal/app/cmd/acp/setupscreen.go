package acp

import (
	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/tui/dialog"
)

// setupScreen hosts the setup dialog as a whole program: it saves the answer off
// the UI loop, shows a failed save on the key step, and quits once saved.
type setupScreen struct {
	dlg           *dialog.Setup
	save          func(p dialog.ProviderOption, model, key string) error
	width, height int
	saving        bool
	saved         bool
}

// setupSavedMsg is the outcome of a save.
type setupSavedMsg struct{ err error }

func (m *setupScreen) Init() tea.Cmd { return nil }

func (m *setupScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
	case setupSavedMsg:
		m.saving = false
		if msg.err != nil {
			m.dlg.Retry(msg.err.Error())
			return m, nil
		}
		m.saved = true
		return m, tea.Quit
	}
	if m.saving {
		return m, nil
	}
	// Every other message goes to the dialog: keys, pastes, the cursor's blink.
	cmd := m.dlg.Update(msg)
	if !m.dlg.Done() {
		return m, cmd
	}
	if m.dlg.Cancelled() {
		return m, tea.Quit
	}
	m.saving = true
	p, model, key := m.dlg.Result()
	save := m.save
	return m, func() tea.Msg { return setupSavedMsg{err: save(p, model, key)} }
}

func (m *setupScreen) View() tea.View {
	if m.width == 0 || m.height == 0 {
		return tea.NewView("")
	}
	v := tea.NewView(m.dlg.View(m.width, m.height))
	v.AltScreen = true
	v.WindowTitle = "albert-code setup"
	return v
}
