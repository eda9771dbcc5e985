package dialog

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
	"github.com/etalab-ia/albert-code/internal/tui/render"
)

var theme = render.NewTheme(false)

func press(d Dialog, keys ...string) {
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case "up":
			msg = tea.KeyPressMsg{Code: tea.KeyUp}
		case "space":
			msg = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
		case "backspace":
			msg = tea.KeyPressMsg{Code: tea.KeyBackspace}
		default:
			for _, r := range k {
				d.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			continue
		}
		d.Update(msg)
	}
}

func bashCall() agent.ToolEvent {
	return agent.ToolEvent{ID: "1", Name: "bash", Arguments: json.RawMessage(`{"command":"make"}`)}
}

func TestApprovalAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		keys []string
		want agent.Decision
	}{
		{[]string{"1"}, agent.Decision{Allow: true}},
		{[]string{"y"}, agent.Decision{Allow: true}},
		{[]string{"2"}, agent.Decision{Allow: true, ForSession: true}},
		{[]string{"down", "enter"}, agent.Decision{Allow: true, ForSession: true}},
		{[]string{"3", "use make test", "enter"}, agent.Decision{Feedback: "use make test"}},
		{[]string{"n", "enter"}, agent.Decision{}},
		{[]string{"esc"}, agent.Decision{}},
		{[]string{"up", "enter", "no thanks", "enter"}, agent.Decision{Feedback: "no thanks"}},
	}
	for _, tt := range tests {
		a := NewApproval(theme, bashCall())
		press(a, tt.keys...)
		if !a.Done() {
			t.Errorf("%v: not done", tt.keys)
			continue
		}
		if a.Decision() != tt.want {
			t.Errorf("%v: %+v, want %+v", tt.keys, a.Decision(), tt.want)
		}
	}
}

func TestApprovalFeedbackEscGoesBack(t *testing.T) {
	t.Parallel()
	a := NewApproval(theme, bashCall())
	press(a, "3", "oops", "esc")
	if a.Done() {
		t.Fatal("esc in the feedback field closed the dialog")
	}
	press(a, "1")
	if !a.Decision().Allow {
		t.Error("choice after going back was not taken")
	}
}

func TestApprovalViewFitsAndShowsChoices(t *testing.T) {
	t.Parallel()
	args, _ := json.Marshal(builtin.EditParams{Path: "a.go", OldString: strings.Repeat("old\n", 50), NewString: strings.Repeat("new\n", 50)})
	a := NewApproval(theme, agent.ToolEvent{Name: "edit", Arguments: args})
	for _, sz := range [][2]int{{40, 12}, {80, 24}} {
		v := a.View(sz[0], sz[1])
		lines := strings.Split(v, "\n")
		if len(lines) > sz[1] {
			t.Errorf("%v: %d lines", sz, len(lines))
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > sz[0] {
				t.Errorf("%v: line too wide: %q", sz, l)
			}
		}
		if !strings.Contains(v, "3. No") {
			t.Errorf("%v: the choices were pushed out by the preview:\n%s", sz, v)
		}
	}
}

func questions() []builtin.Question {
	return []builtin.Question{
		{Question: "Which DB?", Header: "DB", Options: []builtin.Option{{Label: "pg"}, {Label: "sqlite"}}},
		{Question: "Which features?", MultiSelect: true, Options: []builtin.Option{{Label: "auth"}, {Label: "api"}, {Label: "ui"}}},
	}
}

func TestQuestionAnswers(t *testing.T) {
	t.Parallel()
	q := NewQuestion(theme, questions())
	press(q, "2")
	if q.Done() {
		t.Fatal("done after the first of two questions")
	}
	if v := q.View(60, 20); !strings.Contains(v, "Which features?") || !strings.Contains(v, "(2/2)") {
		t.Errorf("second question:\n%s", v)
	}
	press(q, "1", "down", "down", "space", "enter")
	if !q.Done() || q.Declined() {
		t.Fatal("not done")
	}
	got := q.Answers()
	if len(got) != 2 || got[0].Selected[0] != "sqlite" || strings.Join(got[1].Selected, ",") != "auth,ui" {
		t.Errorf("answers %+v", got)
	}
}

func TestQuestionOtherAndDecline(t *testing.T) {
	t.Parallel()
	q := NewQuestion(theme, questions()[:1])
	press(q, "3", "mysql please", "enter")
	if a := q.Answers(); !q.Done() || len(a) != 1 || a[0].Other != "mysql please" {
		t.Errorf("other: %+v", a)
	}
	q = NewQuestion(theme, questions())
	press(q, "esc")
	if !q.Done() || !q.Declined() {
		t.Error("esc does not decline")
	}
}

func TestPickerFilters(t *testing.T) {
	t.Parallel()
	items := []Item{{Label: "mistral-medium", Value: "m"}, {Label: "qwen", Value: "q"}, {Label: "deepseek-flash", Value: "d"}}
	p := NewPicker(theme, "Model", items, 0)
	press(p, "qw", "enter")
	if c := p.Chosen(); c == nil || c.Value != "q" {
		t.Errorf("chosen %+v", c)
	}
	p = NewPicker(theme, "Model", items, 2)
	press(p, "zz")
	if v := p.View(50, 12); !strings.Contains(v, "nothing matches") {
		t.Errorf("no match view:\n%s", v)
	}
	press(p, "backspace", "backspace", "enter")
	if c := p.Chosen(); c == nil || c.Value != "m" {
		t.Errorf("after clearing the filter: %+v", c)
	}
	p = NewPicker(theme, "", items, 0)
	press(p, "esc")
	if !p.Done() || p.Chosen() != nil {
		t.Error("esc must dismiss without a choice")
	}
	p = NewPicker(theme, "", items, 0)
	p.NoFilter = true
	press(p, "3")
	if c := p.Chosen(); c == nil || c.Value != "d" {
		t.Errorf("digit choice: %+v", c)
	}
}

func TestSetupFlow(t *testing.T) {
	t.Parallel()
	providers := []ProviderOption{
		{Name: "albert", KeyEnv: "ALBERT_API_KEY", Models: []string{"mistral-medium", "qwen"}},
		{Name: "ollama"},
	}
	s := NewSetup(theme, providers, "albert")
	press(s, "enter") // albert
	if v := s.View(80, 24); !strings.Contains(v, "Choose a model of albert") {
		t.Fatalf("model step:\n%s", v)
	}
	press(s, "down", "enter")
	if v := s.View(80, 24); !strings.Contains(v, "ALBERT_API_KEY") {
		t.Fatalf("key step:\n%s", v)
	}
	press(s, "enter")
	if s.Done() {
		t.Fatal("an empty key was accepted")
	}
	s.Update(tea.PasteMsg{Content: "sk-"})
	press(s, "secret")
	if v := s.View(80, 24); strings.Contains(v, "sk-secret") {
		t.Error("the key is shown as typed")
	}
	press(s, "enter")
	p, model, key := s.Result()
	if !s.Done() || s.Cancelled() || p.Name != "albert" || model != "qwen" || key != "sk-secret" {
		t.Errorf("result %v %q %q", p.Name, model, key)
	}
	s.Retry("cannot write .env")
	if s.Done() || !strings.Contains(s.View(80, 24), "cannot write .env") {
		t.Error("retry does not reopen with the error")
	}

	s = NewSetup(theme, providers, "")
	press(s, "down", "enter") // ollama: no models, no key
	if p, _, _ := s.Result(); !s.Done() || p.Name != "ollama" {
		t.Errorf("keyless provider: done %v, %v", s.Done(), p.Name)
	}
	s = NewSetup(theme, providers, "")
	press(s, "esc")
	if !s.Done() || !s.Cancelled() {
		t.Error("esc on the first step does not leave")
	}
}
