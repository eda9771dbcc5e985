package tui

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/notify"
)

// Notify sends a desktop notification when a long turn ends or a call waits for
// an answer while the terminal has no focus.
type Notify struct {
	Notifier *notify.Notifier
	// After is how long a turn must have run for its end to be announced.
	After time.Duration
}

// NotifyFromConfig builds the [notifications] settings; nil while they are off,
// which is the default.
func NotifyFromConfig(c config.Notifications) (*Notify, error) {
	if !c.Enabled {
		return nil, nil
	}
	n, err := notify.New(notify.Options{Method: c.Method, Sequence: c.Sequence})
	if err != nil {
		return nil, err
	}
	return &Notify{Notifier: n, After: c.After}, nil
}

// deskState is what the UI knows of the desktop around it.
type deskState struct {
	// blurred: the terminal reported that it lost the focus. A terminal that never
	// reports focus counts as focused, so it is never notified.
	blurred bool
	// updateNote is the update notice waiting for the conversation to open.
	updateNote string
}

type updateNoticeMsg struct{ text string }

// updateNoticeTimeout bounds the background update check, whatever the checker's
// own timeout: a stuck check must not hold a goroutine for the whole session.
const updateNoticeTimeout = 10 * time.Second

// checkUpdate asks, off the UI loop, whether a newer release exists.
func (m *Model) checkUpdate() tea.Cmd {
	check := m.o.UpdateNotice
	if check == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), updateNoticeTimeout)
		defer cancel()
		return updateNoticeMsg{text: check(ctx)}
	}
}

// deskMsg handles the focus reports and the update check's answer; false for
// other messages.
func (m *Model) deskMsg(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.FocusMsg:
		m.desk.blurred = false
	case tea.BlurMsg:
		m.desk.blurred = true
	case updateNoticeMsg:
		m.desk.updateNote = msg.text
		if m.conv != nil && !m.opening {
			m.showUpdateNote()
		}
	default:
		return false
	}
	return true
}

// showUpdateNote shows the update notice once, after the conversation's history.
func (m *Model) showUpdateNote() {
	if m.desk.updateNote != "" {
		m.chat.AddNotice(m.desk.updateNote)
		m.desk.updateNote = ""
	}
}

// notifyTurnEnd announces a turn that ran longer than the threshold while the
// terminal had no focus.
func (m *Model) notifyTurnEnd(err error) tea.Cmd {
	n := m.o.Notify
	if !m.notifying() {
		return nil
	}
	took := time.Since(m.busySince)
	if took < n.After {
		return nil
	}
	what := "the turn ended"
	if err != nil {
		what = "the turn stopped with an error"
	}
	return m.notify(fmt.Sprintf("%s after %s", what, took.Round(time.Second)))
}

// notifyWaiting announces a dialog that waits for the user while the terminal
// has no focus, whatever the turn's length.
func (m *Model) notifyWaiting(what string) tea.Cmd {
	if !m.notifying() {
		return nil
	}
	return m.notify(what)
}

// notifying says whether a notification is due now: they are on and the terminal
// reported that it lost the focus.
func (m *Model) notifying() bool {
	return m.o.Notify != nil && m.o.Notify.Notifier != nil && m.desk.blurred
}

// notify writes the terminal's sequence through the renderer, or runs notify-send
// off the UI loop; a failure is logged, never shown: the notification is a courtesy.
func (m *Model) notify(body string) tea.Cmd {
	n := m.o.Notify.Notifier
	title := "albert-code"
	if m.o.WorkDir != "" {
		title += " · " + filepath.Base(m.o.WorkDir)
	}
	var cmds []tea.Cmd
	if seq := n.Sequence(title, body); seq != "" {
		cmds = append(cmds, tea.Raw(seq))
	}
	cmds = append(cmds, func() tea.Msg {
		if err := n.Send(context.Background(), title, body); err != nil {
			slog.Debug("desktop notification not sent", "err", err)
		}
		return nil
	})
	return tea.Batch(cmds...)
}
