// Package input is the prompt editor of the terminal UI: a multi-line text area
// with a history shared across sessions, completion of slash commands and @paths,
// large pastes folded into placeholders, and $EDITOR for long prompts.
package input

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// Paste folding: a paste longer than this shows as one placeholder so the prompt
// stays editable; the text is put back when the prompt is sent. Judgement: a
// screenful of a small terminal.
const (
	foldLines = 8
	foldBytes = 2000
)

// maxHeight is how tall the input grows before it scrolls. Judgement: room for a
// paragraph while the conversation keeps most of a 24-line screen.
const maxHeight = 8

// Options configure an Input.
type Options struct {
	History *History
	WorkDir string
	// Commands completes "/name" at the start of the input.
	Commands func(prefix string) []Suggestion
}

// Input is the prompt editor.
type Input struct {
	ta    textarea.Model
	theme *render.Theme
	o     Options

	histPos int    // index into the history while browsing; Len() when not
	draft   string // what was typed before browsing the history

	pastes []string // folded pastes, referenced by placeholder number

	menu    []Suggestion
	menuSel int
	menuFor string // the word the menu completes
}

// Submitted is returned by Update when the user sends a prompt.
type Submitted struct{ Text string }

// New returns a focused input.
func New(t *render.Theme, o Options) *Input {
	ta := textarea.New()
	ta.Prompt = "  "
	ta.Placeholder = "Ask anything · / for commands · @ for files · ! for shell"
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = maxHeight
	ta.KeyMap.InsertNewline.SetKeys("shift+enter", "ctrl+j", "alt+enter")
	plain := textarea.StyleState{Placeholder: t.Dim, Selection: t.Selected}
	st := ta.Styles()
	st.Focused, st.Blurred = plain, plain
	st.Cursor.Blink = false // a blinking cursor repaints twice a second for nothing
	if !t.Color {
		st.Cursor.Color = lipgloss.NoColor{}
	}
	ta.SetStyles(st)
	ta.Focus()
	if o.History == nil {
		o.History = &History{}
	}
	in := &Input{ta: ta, theme: t, o: o, histPos: o.History.Len()}
	in.ta.SetPromptFunc(2, func(pi textarea.PromptInfo) string {
		switch {
		case pi.LineNumber != 0:
			return "  "
		case in.ShellMode():
			return t.Warn.Render("$ ") // the line runs in the shell, not the model
		default:
			return t.User.Render("❯ ")
		}
	})
	return in
}

// ShellMode reports whether the text is a "!" shell command.
func (in *Input) ShellMode() bool {
	s := strings.TrimLeft(in.ta.Value(), " \t")
	return strings.HasPrefix(s, "!") && strings.TrimSpace(s[1:]) != ""
}

// SetWidth sets the input's width.
func (in *Input) SetWidth(w int) { in.ta.SetWidth(max(w, 4)) }

// Value is the text as typed (placeholders not expanded).
func (in *Input) Value() string { return in.ta.Value() }

// SetValue replaces the text, whose folded pastes are already expanded, and puts
// the cursor at its end.
func (in *Input) SetValue(s string) {
	in.pastes = nil
	in.ta.SetValue(s)
	in.refreshMenu()
}

// Reset empties the input.
func (in *Input) Reset() {
	in.ta.Reset()
	in.pastes, in.menu = nil, nil
	in.histPos = in.o.History.Len()
}

// MenuOpen reports whether the completion menu is shown; Esc then closes it.
func (in *Input) MenuOpen() bool { return len(in.menu) > 0 }

// CloseMenu hides the completion menu until the word changes.
func (in *Input) CloseMenu() { in.menu = nil }

// Height is the lines the input takes, menu included.
func (in *Input) Height() int { return in.ta.Height() + len(in.menu) }

// Update handles a key or a paste. It returns a Submitted message's text and true
// when the user sent the prompt.
func (in *Input) Update(msg tea.Msg) (string, bool, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		in.paste(msg.Content)
		return "", false, nil
	case tea.KeyPressMsg:
		if text, sent, handled := in.key(msg); handled {
			return text, sent, nil
		}
	}
	var cmd tea.Cmd
	in.ta, cmd = in.ta.Update(msg)
	in.refreshMenu()
	return "", false, cmd
}

func (in *Input) key(k tea.KeyPressMsg) (text string, sent, handled bool) {
	switch k.String() {
	case "enter":
		if in.MenuOpen() {
			in.accept()
			return "", false, true
		}
		if v := in.ta.Value(); strings.HasSuffix(v, "\\") {
			in.ta.SetValue(strings.TrimSuffix(v, "\\") + "\n")
			return "", false, true
		}
		text = in.expand(in.ta.Value())
		if strings.TrimSpace(text) == "" {
			return "", false, true
		}
		_ = in.o.History.Add(text) // a history that cannot be saved is no reason to lose the prompt
		in.Reset()
		return text, true, true
	case "tab":
		if in.MenuOpen() {
			in.accept()
		}
		return "", false, true
	case "up":
		if in.MenuOpen() {
			in.menuSel = (in.menuSel + len(in.menu) - 1) % len(in.menu)
			return "", false, true
		}
		if in.ta.Line() == 0 {
			in.browse(-1)
			return "", false, true
		}
	case "down":
		if in.MenuOpen() {
			in.menuSel = (in.menuSel + 1) % len(in.menu)
			return "", false, true
		}
		if in.ta.Line() == in.ta.LineCount()-1 {
			in.browse(+1)
			return "", false, true
		}
	}
	return "", false, false
}

// browse moves through the history: -1 older, +1 newer; past the newest entry the
// draft typed before browsing comes back.
func (in *Input) browse(dir int) {
	h := in.o.History
	if in.histPos == h.Len() && dir < 0 {
		in.draft = in.ta.Value()
	}
	pos := in.histPos + dir
	if pos < 0 || pos > h.Len() {
		return
	}
	in.histPos = pos
	if pos == h.Len() {
		in.ta.SetValue(in.draft)
	} else {
		in.ta.SetValue(h.At(pos))
	}
	in.menu = nil
}

func (in *Input) paste(s string) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if n := strings.Count(s, "\n") + 1; n > foldLines || len(s) > foldBytes {
		in.pastes = append(in.pastes, s)
		in.ta.InsertString(fmt.Sprintf("[pasted text #%d, %d lines]", len(in.pastes), n))
		return
	}
	in.ta.InsertString(s)
	in.refreshMenu()
}

// expand puts the folded pastes back in place of their placeholders.
func (in *Input) expand(v string) string {
	for i, p := range in.pastes {
		ph := fmt.Sprintf("[pasted text #%d, %d lines]", i+1, strings.Count(p, "\n")+1)
		v = strings.Replace(v, ph, p, 1)
	}
	return v
}

func (in *Input) refreshMenu() {
	v := in.ta.Value()
	word := lastWord(v)
	atEnd := in.ta.Line() == in.ta.LineCount()-1 && in.ta.Column() == len([]rune(lastLine(v)))
	in.menu = nil
	switch {
	case !atEnd || word == "":
	case strings.HasPrefix(word, "/") && word == v && in.o.Commands != nil:
		in.menu = in.o.Commands(word)
	case strings.HasPrefix(word, "@"):
		in.menu = CompletePath(in.o.WorkDir, word)
	}
	if len(in.menu) == 1 && in.menu[0].Text == word {
		in.menu = nil // already complete
	}
	if word != in.menuFor {
		in.menuSel = 0
	}
	in.menuFor = word
	if in.menuSel >= len(in.menu) {
		in.menuSel = 0
	}
}

// accept replaces the word being completed with the selected suggestion.
func (in *Input) accept() {
	s := in.menu[in.menuSel]
	v := in.ta.Value()
	v = v[:len(v)-len(lastWord(v))] + s.Text
	if !strings.HasSuffix(s.Text, "/") {
		v += " "
	}
	in.ta.SetValue(v)
	in.refreshMenu()
}

// View draws the completion menu above the text area.
func (in *Input) View() string {
	var b strings.Builder
	w := in.ta.Width()
	for i, s := range in.menu {
		line := "  " + s.Label
		if s.Detail != "" {
			line += "  " + in.theme.Dim.Render(s.Detail)
		}
		line = ansi.Truncate(line, w, "…")
		if i == in.menuSel {
			line = in.theme.Selected.Render(ansi.Strip(line))
		}
		b.WriteString(line + "\n")
	}
	b.WriteString(in.ta.View())
	return b.String()
}

func lastLine(v string) string {
	return v[strings.LastIndexByte(v, '\n')+1:]
}
