package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/tool/builtin"
	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// Question puts ask_user_question's questions one after the other. Each has its
// options and a last "Other" choice where the user types their own answer.
type Question struct {
	theme     *render.Theme
	questions []builtin.Question
	answers   []builtin.Answer
	cur, sel  int
	checked   map[int]bool
	typing    bool
	other     textinput.Model
	done      bool
	declined  bool
}

// NewQuestion opens the dialog; qs must not be empty.
func NewQuestion(t *render.Theme, qs []builtin.Question) *Question {
	o := textinput.New()
	o.Prompt = "› "
	o.Placeholder = "your answer (enter to send)"
	return &Question{theme: t, questions: qs, checked: map[int]bool{}, other: o, done: len(qs) == 0}
}

// Answers are the answers, one per question; meaningful once Done and not Declined.
func (q *Question) Answers() []builtin.Answer { return q.answers }

// Declined reports whether the user dismissed the questions (Esc).
func (q *Question) Declined() bool { return q.declined }

// Done reports whether every question is answered or the user dismissed them.
func (q *Question) Done() bool { return q.done }

func (q *Question) current() builtin.Question { return q.questions[q.cur] }

// choices is the options plus "Other".
func (q *Question) choices() int { return len(q.current().Options) + 1 }

// Update handles a key.
func (q *Question) Update(msg tea.Msg) tea.Cmd {
	k := keyOf(msg)
	if q.typing {
		switch k {
		case "enter":
			if text := strings.TrimSpace(q.other.Value()); text != "" {
				q.answer(builtin.Answer{Selected: q.selectedLabels(), Other: text})
			}
		case "esc":
			q.typing = false
		default:
			var cmd tea.Cmd
			q.other, cmd = q.other.Update(msg)
			return cmd
		}
		return nil
	}
	n := q.choices()
	switch k {
	case "esc":
		q.done, q.declined = true, true
	case "up", "k":
		q.sel = (q.sel + n - 1) % n
	case "down", "j", "tab":
		q.sel = (q.sel + 1) % n
	case "space":
		if q.current().MultiSelect && q.sel < n-1 {
			q.checked[q.sel] = !q.checked[q.sel]
		}
	case "enter":
		return q.choose(q.sel)
	default:
		if len(k) == 1 && k[0] >= '1' && int(k[0]-'1') < n {
			q.sel = int(k[0] - '1')
			if q.current().MultiSelect && q.sel < n-1 {
				q.checked[q.sel] = !q.checked[q.sel]
				return nil
			}
			return q.choose(q.sel)
		}
	}
	return nil
}

func (q *Question) choose(i int) tea.Cmd {
	if i == q.choices()-1 {
		q.typing = true
		q.other.Reset()
		return q.other.Focus()
	}
	if q.current().MultiSelect {
		if len(q.checked) == 0 || !anyTrue(q.checked) {
			q.checked[i] = true
		}
		q.answer(builtin.Answer{Selected: q.selectedLabels()})
		return nil
	}
	q.answer(builtin.Answer{Selected: []string{q.current().Options[i].Label}})
	return nil
}

func (q *Question) selectedLabels() []string {
	var out []string
	for i, o := range q.current().Options {
		if q.checked[i] {
			out = append(out, o.Label)
		}
	}
	return out
}

func (q *Question) answer(a builtin.Answer) {
	q.answers = append(q.answers, a)
	q.cur, q.sel, q.typing, q.checked = q.cur+1, 0, false, map[int]bool{}
	q.other.Blur()
	if q.cur == len(q.questions) {
		q.done = true
	}
}

// View draws the current question.
func (q *Question) View(width, height int) string {
	if q.done {
		return ""
	}
	t := q.theme
	cur := q.current()
	title := "Question"
	if cur.Header != "" {
		title = render.Sanitize(cur.Header)
	}
	if len(q.questions) > 1 {
		title += fmt.Sprintf(" (%d/%d)", q.cur+1, len(q.questions))
	}
	body := render.Wrap(render.Sanitize(cur.Question), max(width-4, 8))
	body = append(body, "")
	var opts []string
	for i, o := range cur.Options {
		box := ""
		if cur.MultiSelect {
			box = "[ ] "
			if q.checked[i] {
				box = "[x] "
			}
		}
		line := fmt.Sprintf("%d. %s%s", i+1, box, render.Sanitize(o.Label))
		if o.Description != "" {
			line += " — " + render.Sanitize(o.Description)
		}
		opts = append(opts, line)
	}
	opts = append(opts, fmt.Sprintf("%d. Other: type your own answer", len(cur.Options)+1))
	body = append(body, menu(t, opts, q.sel)...)
	if q.typing {
		q.other.SetWidth(max(width-8, 10))
		body = append(body, "  "+q.other.View())
	}
	hint := "enter to choose · esc to skip the questions"
	if cur.MultiSelect {
		hint = "space to tick · enter to send · esc to skip the questions"
	}
	body = append(body, "", t.Dim.Render(hint))
	return frame(t, title, body, width, height)
}

func anyTrue(m map[int]bool) bool {
	for _, v := range m {
		if v {
			return true
		}
	}
	return false
}
