package input

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/tui/render"
)

func key(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "shift+enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift}
	case "ctrl+j":
		return tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

func typeText(in *Input, s string) {
	for _, r := range s {
		in.Update(key(string(r)))
	}
}

func newInput(t *testing.T, o Options) *Input {
	in := New(render.NewTheme(false), o)
	in.SetWidth(60)
	return in
}

func TestEnterSubmitsAndRemembers(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	h, _ := LoadHistory(home)
	in := newInput(t, Options{History: h})
	typeText(in, "first prompt")
	text, sent, _ := in.Update(key("enter"))
	if !sent || text != "first prompt" {
		t.Fatalf("sent %v %q", sent, text)
	}
	if in.Value() != "" {
		t.Errorf("input not cleared: %q", in.Value())
	}
	if _, sent, _ := in.Update(key("enter")); sent {
		t.Error("an empty prompt was sent")
	}
	// The next session finds the prompt in the history file.
	h2, err := LoadHistory(home)
	if err != nil || h2.Len() != 1 || h2.At(0) != "first prompt" {
		t.Errorf("history after reload: %v %d", err, h2.Len())
	}
}

func TestNewlineKeys(t *testing.T) {
	t.Parallel()
	in := newInput(t, Options{})
	typeText(in, "a")
	in.Update(key("shift+enter"))
	typeText(in, "b")
	in.Update(key("ctrl+j"))
	typeText(in, "c\\")
	in.Update(key("enter")) // a final backslash asks for a new line
	typeText(in, "d")
	text, sent, _ := in.Update(key("enter"))
	if !sent || text != "a\nb\nc\nd" {
		t.Errorf("sent %v %q", sent, text)
	}
}

func TestHistoryBrowsingKeepsDraft(t *testing.T) {
	t.Parallel()
	h, _ := LoadHistory(t.TempDir())
	_ = h.Add("one")
	_ = h.Add("two\nlines")
	in := newInput(t, Options{History: h})
	typeText(in, "draft")
	in.Update(key("up"))
	if in.Value() != "two\nlines" {
		t.Fatalf("up: %q", in.Value())
	}
	// The cursor is on the last line of a two-line entry: up first moves inside it.
	in.Update(key("up"))
	in.Update(key("up"))
	if in.Value() != "one" {
		t.Fatalf("up twice more: %q", in.Value())
	}
	in.Update(key("down"))
	in.Update(key("down"))
	in.Update(key("down"))
	if in.Value() != "draft" {
		t.Errorf("back down: %q, want the draft", in.Value())
	}
}

func TestHistoryDedupAndLimit(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	h, _ := LoadHistory(home)
	_ = h.Add("same")
	_ = h.Add("same")
	if h.Len() != 1 {
		t.Errorf("a repeated prompt was stored twice")
	}
	for i := range 2*historyLimit + 5 {
		_ = h.Add(strings.Repeat("x", i%7) + string(rune('a'+i%26)))
	}
	h2, _ := LoadHistory(home)
	if h2.Len() != historyLimit {
		t.Errorf("%d entries loaded, want the limit %d", h2.Len(), historyLimit)
	}
	data, _ := os.ReadFile(filepath.Join(home, HistoryFile))
	if n := strings.Count(string(data), "\n"); n > 2*historyLimit {
		t.Errorf("the file keeps %d lines; it should be rewritten past twice the limit", n)
	}
}

func TestLargePasteFolds(t *testing.T) {
	t.Parallel()
	in := newInput(t, Options{})
	typeText(in, "explain: ")
	big := strings.Repeat("log line\n", 40) + "end"
	in.Update(tea.PasteMsg{Content: big})
	if v := in.Value(); !strings.Contains(v, "[pasted text #1, 41 lines]") || strings.Contains(v, "log line") {
		t.Fatalf("input shows %q", v)
	}
	in.Update(tea.PasteMsg{Content: "small"})
	text, _, _ := in.Update(key("enter"))
	if text != "explain: "+big+"small" {
		t.Errorf("sent %q", text)
	}
}

func TestSlashCompletion(t *testing.T) {
	t.Parallel()
	cmds := func(prefix string) []Suggestion {
		var out []Suggestion
		for _, n := range []string{"/clear", "/compact", "/copy"} {
			if strings.HasPrefix(n, prefix) {
				out = append(out, Suggestion{Text: n, Label: n})
			}
		}
		return out
	}
	in := newInput(t, Options{Commands: cmds})
	typeText(in, "/co")
	if !in.MenuOpen() || !strings.Contains(in.View(), "/compact") || strings.Contains(in.View(), "/clear") {
		t.Fatalf("menu:\n%s", in.View())
	}
	in.Update(key("down"))
	in.Update(key("tab"))
	if in.Value() != "/copy " {
		t.Errorf("accepted %q, want /copy", in.Value())
	}
	if in.MenuOpen() {
		t.Error("menu still open after accepting")
	}
	// Enter with the menu open completes rather than sends.
	in.Reset()
	typeText(in, "/cl")
	if _, sent, _ := in.Update(key("enter")); sent || in.Value() != "/clear " {
		t.Errorf("enter on the menu: sent %v, value %q", sent, in.Value())
	}
	// Mid-sentence slashes are not commands.
	in.Reset()
	typeText(in, "see /co")
	if in.MenuOpen() {
		t.Error("menu opened for a slash inside a sentence")
	}
}

func TestPathCompletion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, p := range []string{"src/main.go", "src/model.go", "README.md", ".hidden"} {
		_ = os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		_ = os.WriteFile(filepath.Join(dir, p), nil, 0o644)
	}
	in := newInput(t, Options{WorkDir: dir})
	typeText(in, "look at @")
	if v := in.View(); !strings.Contains(v, "src/") || !strings.Contains(v, "README.md") || strings.Contains(v, ".hidden") {
		t.Fatalf("menu:\n%s", v)
	}
	typeText(in, "s")
	in.Update(key("tab"))
	if in.Value() != "look at @src/" {
		t.Fatalf("after tab: %q", in.Value())
	}
	typeText(in, "mo")
	in.Update(key("tab"))
	if in.Value() != "look at @src/model.go " {
		t.Errorf("after second tab: %q", in.Value())
	}
	if got := CompletePath(dir, "@../"); got != nil {
		t.Errorf("completion leaves the workspace: %v", got)
	}
}
