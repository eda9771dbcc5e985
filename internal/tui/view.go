package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/etalab-ia/albert-code/internal/slash"
)

// The smallest screen the UI draws on: below it a message says so. Judgement: 40
// columns fit the footer's essentials and an approval's choices; 12 lines fit a
// dialog above the footer.
const (
	minWidth  = 40
	minHeight = 12
)

// View draws the screen: conversation, status line, input (or the open dialog)
// and footer.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.ReportFocus = m.o.Notify != nil // notifications are for an unfocused terminal
	v.WindowTitle = "albert-code"
	return v
}

// Render is the screen as text, exactly height lines (for View and for tests).
func (m *Model) Render() string {
	if m.width == 0 || m.height == 0 {
		return "albert-code is starting…"
	}
	if msg := m.tooSmall(); msg != "" {
		return msg
	}
	footer := m.footer()
	var bottom string
	if len(m.dialogs) > 0 {
		bottom = m.dialogs[0].d.View(m.width, m.height-1-3)
	} else {
		bottom = m.statusLine() + "\n" + m.input.View()
	}
	chatH := max(m.height-1-lineCount(bottom), 0)
	m.chat.SetSize(m.width, chatH)
	return m.chat.Render() + "\n" + bottom + "\n" + footer
}

func (m *Model) chatHeight() int {
	return max(m.height-1-1-m.input.Height(), 1)
}

func (m *Model) tooSmall() string {
	if m.width >= minWidth && m.height >= minHeight {
		return ""
	}
	lines := []string{
		"The terminal is too small:",
		fmt.Sprintf("%d×%d, albert-code needs %d×%d.", m.width, m.height, minWidth, minHeight),
		"Enlarge the window; ctrl+c twice quits.",
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, max(m.width, 1), "")
	}
	if len(lines) > m.height {
		lines = lines[:max(m.height, 1)]
	}
	return strings.Join(lines, "\n")
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// statusLine says what the agent is doing, or what the keys do.
func (m *Model) statusLine() string {
	t := m.theme
	var s string
	switch {
	case !m.ctrlC.IsZero() && time.Since(m.ctrlC) < quitWindow:
		s = t.Warn.Render("press ctrl+c again to quit")
	case m.opening:
		s = t.Dim.Render(spinner[m.frame%len(spinner)] + " opening the session…")
	case m.busy && time.Now().Before(m.waitUntil):
		left := time.Until(m.waitUntil).Round(time.Second)
		s = t.Warn.Render(spinner[m.frame%len(spinner)]+fmt.Sprintf(" waiting %s", left)) + t.Dim.Render(" · "+m.waitFor+" · esc to interrupt")
	case m.busy && m.silentFor() > 0:
		s = t.Warn.Render(spinner[m.frame%len(spinner)]+fmt.Sprintf(" waiting for %s: nothing received for %ds", orDash(m.model), int(m.silentFor().Seconds()))) +
			t.Dim.Render(" · the server took the request · esc to interrupt")
	case m.busy:
		secs := int(time.Since(m.busySince).Seconds())
		doing := pick(m.shell, "running the command", "working")
		s = t.ToolRunning.Render(spinner[m.frame%len(spinner)]) + t.Dim.Render(fmt.Sprintf(" %s… %ds · esc to interrupt", doing, secs))
	default:
		s = t.Dim.Render("/help for commands · ! for shell · shift+tab switches profile")
	}
	if !m.chat.Following() {
		s += t.Dim.Render(" · scrolled (ctrl+end to follow)")
	}
	return ansi.Truncate(s, m.width, "…")
}

// footer shows the profile, the model, the context gauge, tokens and cost.
func (m *Model) footer() string {
	t := m.theme
	left := fmt.Sprintf(" %s%s · %s", orDash(m.profile), m.safetyMarks(), orDash(m.model))
	u := m.stats.Usage
	right := fmt.Sprintf("%s · ↑%s ↓%s · %.4f € ", m.gauge(), slash.CompactCount(u.InputTokens), slash.CompactCount(u.OutputTokens), m.stats.Cost)
	gap := m.width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		// Narrow screens drop the tokens first, then cut the names.
		right = m.gauge() + " "
		gap = max(m.width-ansi.StringWidth(left)-ansi.StringWidth(right), 1)
	}
	if rate := m.rateGauge(); rate != "" && gap > ansi.StringWidth(rate)+2 {
		// The rate-limit gauge sits before the context gauge when it fits.
		right = rate + t.Footer.Render(" · ") + t.Footer.Render(right)
		gap -= ansi.StringWidth(rate) + 3
		return ansi.Truncate(t.Bold.Render(left)+strings.Repeat(" ", gap)+right, m.width, "…")
	}
	line := t.Bold.Render(left) + strings.Repeat(" ", gap) + t.Footer.Render(right)
	return ansi.Truncate(line, m.width, "…")
}

// gaugeCells is the context gauge's width. Judgement: ten cells read at a glance.
const gaugeCells = 10

func (m *Model) gauge() string {
	used, window := m.stats.ContextTokens, m.stats.ContextWindow
	if window <= 0 {
		return "ctx " + slash.CompactCount(used)
	}
	frac := min(float64(used)/float64(window), 1)
	full := int(frac*gaugeCells + 0.5)
	style := m.theme.GaugeFull
	if frac >= 0.8 {
		style = m.theme.Warn
	}
	return "ctx " + style.Render(strings.Repeat("█", full)) + m.theme.GaugeEmpty.Render(strings.Repeat("░", gaugeCells-full)) +
		fmt.Sprintf(" %d%%", int(frac*100))
}

func orDash(s string) string {
	if s == "" {
		return "…"
	}
	return s
}

func lineCount(s string) int { return strings.Count(s, "\n") + 1 }
