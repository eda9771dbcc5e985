// Package dialog holds the modal dialogs of the terminal UI: tool approval,
// ask_user_question, pickers (model, profile, session), the first-run setup and
// the trusted-folder question. Each takes keys until it is done and then exposes
// its answer; the UI decides what the answer does.
package dialog

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// Dialog is a modal: it gets every key while open.
type Dialog interface {
	Update(msg tea.Msg) tea.Cmd
	// Done reports whether the dialog has its answer (or was dismissed).
	Done() bool
	// View draws the dialog in at most width columns and height lines.
	View(width, height int) string
}

// frame draws a titled box around body lines, cutting lines to the box's inside
// and dropping lines from the middle of body when it is taller than height allows.
func frame(t *render.Theme, title string, body []string, width, height int) string {
	inner := max(width-4, 8) // two border columns, two padding columns
	room := max(height-2, 1)
	if title != "" {
		room = max(room-1, 1)
	}
	if len(body) > room {
		cut := len(body) - room + 1
		keepTop := room / 2
		body = append(append(append([]string(nil), body[:keepTop]...), "…"), body[keepTop+cut:]...)
	}
	for i, l := range body {
		body[i] = ansi.Truncate(l, inner, "…")
	}
	box := t.DialogBorder.Width(inner + 4)
	if title != "" {
		body = append([]string{t.DialogTitle.Render(ansi.Truncate(title, inner, "…"))}, body...)
	}
	return box.Render(strings.Join(body, "\n"))
}

// menu renders options with the selected one marked.
func menu(t *render.Theme, options []string, sel int) []string {
	out := make([]string, len(options))
	for i, o := range options {
		if i == sel {
			out[i] = t.Selected.Render("❯ " + o)
		} else {
			out[i] = "  " + o
		}
	}
	return out
}

// keyOf returns the key's name as Bubble Tea spells it ("enter", "esc", "1"...),
// or "" for a message that is not a key press.
func keyOf(msg tea.Msg) string {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return k.String()
	}
	return ""
}
