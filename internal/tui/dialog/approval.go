package dialog

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/textdiff"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// Approval asks whether a tool call may run: once, for the rest of the session,
// or not, with words for the agent about what to do instead (notes §2.3: keys
// 1/y, 2, 3/n as in the original).
type Approval struct {
	theme    *render.Theme
	call     agent.ToolEvent
	sel      int
	typing   bool
	feedback textinput.Model
	done     bool
	decision agent.Decision
	// readFile reads a file the call names; nil previews the arguments alone.
	readFile func(path string) (string, error)
}

// WithFiles lets the preview read the file an edit or a write changes, so it shows
// the diff of the whole file, with context and line numbers, as the view after the
// call does; read fails for what it must not show (outside the workspace...).
func (a *Approval) WithFiles(read func(path string) (string, error)) *Approval {
	a.readFile = read
	return a
}

// NewApproval opens the dialog for call.
func NewApproval(t *render.Theme, call agent.ToolEvent) *Approval {
	fb := textinput.New()
	fb.Placeholder = "what should the agent do instead? (enter to send)"
	fb.Prompt = "› "
	return &Approval{theme: t, call: call, feedback: fb}
}

// Decision is the answer; meaningful once Done.
func (a *Approval) Decision() agent.Decision { return a.decision }

// Call is the call being approved.
func (a *Approval) Call() agent.ToolEvent { return a.call }

// Done reports whether the user answered.
func (a *Approval) Done() bool { return a.done }

func (a *Approval) options() []string {
	return []string{
		"1. Yes",
		fmt.Sprintf("2. Yes, and allow %s for the rest of this session", a.call.Name),
		"3. No, and tell the agent what to do instead",
	}
}

// Update handles a key.
func (a *Approval) Update(msg tea.Msg) tea.Cmd {
	k := keyOf(msg)
	if a.typing {
		switch k {
		case "enter":
			a.finish(agent.Decision{Feedback: strings.TrimSpace(a.feedback.Value())})
		case "esc":
			a.typing = false
			a.feedback.Blur()
		default:
			var cmd tea.Cmd
			a.feedback, cmd = a.feedback.Update(msg)
			return cmd
		}
		return nil
	}
	switch k {
	case "1", "y":
		a.finish(agent.Decision{Allow: true})
	case "2", "a":
		a.finish(agent.Decision{Allow: true, ForSession: true})
	case "3", "n":
		a.sel = 2
		a.typing = true
		return a.feedback.Focus()
	case "esc":
		a.finish(agent.Decision{})
	case "up", "k":
		a.sel = (a.sel + 2) % 3
	case "down", "j", "tab":
		a.sel = (a.sel + 1) % 3
	case "enter":
		return a.Update(tea.KeyPressMsg{Code: rune('1' + a.sel), Text: string(rune('1' + a.sel))})
	}
	return nil
}

func (a *Approval) finish(d agent.Decision) { a.done, a.decision = true, d }

// View draws the call, a preview of what it will do, and the choices.
func (a *Approval) View(width, height int) string {
	t := a.theme
	body := []string{t.ToolName.Render(a.call.Name) + "  " + summary(a.call)}
	if a.call.Reason != "" {
		body = append(body, t.Warn.Render("why asked: ")+render.Sanitize(a.call.Reason))
	}
	// The choices must stay visible: the preview gets what is left.
	room := max(height-2-1-len(body)-4, 0)
	if room > 0 {
		if p := preview(t, a.call, a.readFile, width-4, room); len(p) > 0 {
			body = append(body, p...)
		}
	}
	body = append(body, "")
	body = append(body, menu(t, a.options(), a.sel)...)
	if a.typing {
		a.feedback.SetWidth(max(width-8, 10))
		body = append(body, "  "+a.feedback.View())
	}
	return frame(t, "Allow this tool call?", body, width, height)
}

// preview shows what a call will change: a diff for edit and write, the command
// for bash (already in the summary), else nothing.
func preview(t *render.Theme, call agent.ToolEvent, read func(string) (string, error), width, lines int) []string {
	current := func(path string) (string, bool) {
		if read == nil {
			return "", false
		}
		s, err := read(path)
		return s, err == nil
	}
	switch call.Name {
	case "edit":
		var p builtin.EditParams
		if json.Unmarshal(call.Arguments, &p) != nil {
			return nil
		}
		if old, ok := current(p.Path); ok {
			if updated, ok := applyEdit(old, p); ok {
				d, _, _ := textdiff.Unified("a/"+p.Path, "b/"+p.Path, old, updated)
				return render.Diff(t, d, width, lines)
			}
		}
		// The file cannot be read or the edit will fail: show what the call asks.
		d, _, _ := textdiff.Unified("a/"+p.Path, "b/"+p.Path, p.OldString, p.NewString)
		return render.Diff(t, d, width, lines)
	case "write":
		var p builtin.WriteParams
		if json.Unmarshal(call.Arguments, &p) != nil {
			return nil
		}
		from, old := "/dev/null", ""
		if s, ok := current(p.Path); ok {
			from, old = "a/"+p.Path, s
		}
		d, _, _ := textdiff.Unified(from, "b/"+p.Path, old, p.Content)
		return render.Diff(t, d, width, lines)
	}
	return nil
}

// applyEdit is the file after the edit, as the edit tool will write it, or false
// when the tool will refuse it (old_string absent, or in several places without
// replace_all). The model writes "\n"; a CRLF file is matched in its own style.
func applyEdit(old string, p builtin.EditParams) (string, bool) {
	if p.OldString == "" {
		return p.NewString, old == ""
	}
	oldS, newS := p.OldString, p.NewString
	n := strings.Count(old, oldS)
	if n == 0 && strings.Contains(old, "\r\n") {
		crlf := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n") }
		oldS, newS = crlf(oldS), crlf(newS)
		n = strings.Count(old, oldS)
	}
	if n == 0 || (n > 1 && !p.ReplaceAll) {
		return "", false
	}
	return strings.ReplaceAll(old, oldS, newS), true
}

// summary is the gist of the call's arguments on one line.
func summary(call agent.ToolEvent) string {
	var m map[string]any
	if json.Unmarshal(call.Arguments, &m) != nil {
		return ""
	}
	for _, k := range []string{"command", "path", "url", "pattern", "query"} {
		if v, ok := m[k].(string); ok {
			return strings.Join(strings.Fields(render.Sanitize(v)), " ")
		}
	}
	b, _ := json.Marshal(m)
	return render.Sanitize(string(b))
}
