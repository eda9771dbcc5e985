package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/tui/dialog"
	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// errSetupCancelled ends `albert-acp --setup` with a failure: an editor that ran it
// for terminal authentication reads a non-zero exit as "no key yet".
var errSetupCancelled = errors.New("setup cancelled: nothing was saved; run `albert-acp --setup` again, or set ALBERT_API_KEY in the environment the editor starts albert-acp with")

// errSetupNeedsTerminal refuses a setup whose input is a pipe or a file: the screen
// reads keys, one at a time.
var errSetupNeedsTerminal = errors.New("--setup needs a terminal to type in: run it in one (an editor's terminal sign-in does), or set ALBERT_API_KEY in the environment the editor starts albert-acp with")

// runACPSetup is `albert-acp --setup`: the setup screen of `albert-code --setup`
// alone (provider, model, API key, saved where every face reads them), then exit.
// Editors run it in a terminal to authenticate a user who has no key yet.
func runACPSetup(ctx context.Context, fac *cmdutil.Factory, f acpFlags) error {
	stdin, stdout := fac.IO.In, fac.IO.Out
	if ctx == nil {
		ctx = context.Background()
	}
	if !fac.IO.InIsTerminal() {
		return errSetupNeedsTerminal
	}
	wd, err := fac.WorkDir()
	if err != nil {
		return err
	}
	e, err := fac.LoadEnv(wd, config.Overrides{Agent: f.agent, Model: f.model}, f.trust)
	if err != nil {
		return err
	}
	st := setupFor(e)
	home := e.Config.Home
	e.Close()

	m := &setupScreen{dlg: dialog.NewSetup(render.NewTheme(colorWanted()), st.Providers, st.Current), save: st.Save}
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(stdin), tea.WithOutput(stdout))
	if _, err := p.Run(); err != nil {
		return fmt.Errorf("setup screen: %w", err)
	}
	if !m.saved {
		return errSetupCancelled
	}
	_, err = fmt.Fprintf(stdout, "Setup saved (the key in %s). Go back to the editor: its next session uses it.\n", filepath.Join(home, ".env"))
	return err
}

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
