package chatview

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
	"github.com/etalab-ia/albert-code/internal/tui/render"
)

func newView(w, h int) *View {
	v := New(render.NewTheme(false), render.NewMarkdown(false))
	v.SetSize(w, h)
	return v
}

func screen(v *View) string { return ansi.Strip(v.Render()) }

func TestStreamingJoinsDeltas(t *testing.T) {
	t.Parallel()
	v := newView(60, 10)
	v.AddUser("hi")
	for _, d := range []string{"Hel", "lo ", "world"} {
		v.Apply(agent.Event{Kind: agent.EventTextDelta, Text: d})
	}
	v.Apply(agent.Event{Kind: agent.EventTurnEnd, Stop: agent.StopEndTurn})
	if v.Len() != 2 {
		t.Fatalf("%d items, want user + one answer", v.Len())
	}
	if !strings.Contains(screen(v), "Hello world") {
		t.Errorf("screen:\n%s", screen(v))
	}
	if v.LastAnswer() != "Hello world" {
		t.Errorf("LastAnswer = %q", v.LastAnswer())
	}
	if got := strings.Count(v.Render(), "\n") + 1; got != 10 {
		t.Errorf("Render gave %d lines, want the height 10", got)
	}
}

func TestReasoningFoldsAndUnfolds(t *testing.T) {
	t.Parallel()
	v := newView(60, 12)
	v.Apply(agent.Event{Kind: agent.EventReasoningDelta, Text: "step one\nstep two\nstep three"})
	v.Apply(agent.Event{Kind: agent.EventTextDelta, Text: "answer"})
	s := screen(v)
	if !strings.Contains(s, "thinking (3 lines") || strings.Contains(s, "step one") || !strings.Contains(s, "step three") {
		t.Errorf("folded reasoning shows the header and the latest line only:\n%s", s)
	}
	v.ToggleReasoning()
	if s := screen(v); !strings.Contains(s, "step one") || !strings.Contains(s, "step two") {
		t.Errorf("unfolded reasoning:\n%s", s)
	}
}

func TestToolLifecycle(t *testing.T) {
	t.Parallel()
	v := newView(70, 20)
	call := &agent.ToolEvent{ID: "1", Name: "bash", Arguments: json.RawMessage(`{"command":"go test ./..."}`)}
	v.Apply(agent.Event{Kind: agent.EventPermission, Tool: call})
	if s := screen(v); !strings.Contains(s, "? bash  go test ./...") {
		t.Errorf("waiting call:\n%s", s)
	}
	v.Apply(agent.Event{Kind: agent.EventToolCallStart, Tool: call})
	for i := range 20 {
		v.Apply(agent.Event{Kind: agent.EventToolCallUpdate, Tool: &agent.ToolEvent{ID: "1"}, Text: fmt.Sprintf("line %d\n", i)})
	}
	s := screen(v)
	if !strings.Contains(s, "● bash") || !strings.Contains(s, "line 19") || strings.Contains(s, "line 3\n") || !strings.Contains(s, "12 earlier lines") {
		t.Errorf("running call shows the latest output only:\n%s", s)
	}
	v.ToggleTools()
	if s := screen(v); !strings.Contains(s, "line 5") {
		t.Errorf("expanded output:\n%s", s)
	}
	v.ToggleTools()
	res := *call
	res.Output, res.IsError = "exit status 1", true
	v.Apply(agent.Event{Kind: agent.EventToolCallResult, Tool: &res})
	if s := screen(v); !strings.Contains(s, "✗ bash") || !strings.Contains(s, "exit status 1") {
		t.Errorf("failed call:\n%s", s)
	}
	if v.Len() != 1 {
		t.Errorf("%d items: every event of one call must update one widget", v.Len())
	}
}

func TestEditShowsDiff(t *testing.T) {
	t.Parallel()
	v := newView(70, 20)
	call := &agent.ToolEvent{ID: "e", Name: "edit", Arguments: json.RawMessage(`{"path":"a.go"}`)}
	v.Apply(agent.Event{Kind: agent.EventToolCallStart, Tool: call})
	res := *call
	res.Output = "Edited a.go"
	res.Display = builtin.FileDiff{Path: "a.go", Unified: "--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-old\n+new\n"}
	v.Apply(agent.Event{Kind: agent.EventToolCallResult, Tool: &res})
	s := screen(v)
	if !strings.Contains(s, "✓ edit  a.go") || !strings.Contains(s, "-old") || !strings.Contains(s, "+new") {
		t.Errorf("edit widget:\n%s", s)
	}
}

func TestModelEscapesNeverReachTheScreen(t *testing.T) {
	t.Parallel()
	v := New(render.NewTheme(true), render.NewMarkdown(true))
	v.SetSize(60, 10)
	v.Apply(agent.Event{Kind: agent.EventTextDelta, Text: "ok \x1b]0;owned\x07\x1b[2J\x1b[31mred"})
	v.Apply(agent.Event{Kind: agent.EventToolCallResult, Tool: &agent.ToolEvent{ID: "x", Name: "bash", Output: "\x1b]52;c;ZXZpbA==\x07out\rover"}})
	out := v.Render()
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\x07", "\r"} {
		if strings.Contains(out, bad) {
			t.Errorf("screen keeps %q", bad)
		}
	}
}

// Ten thousand messages: drawing the bottom or the top renders only what is on
// screen, never the whole history.
func TestLongHistoryRendersOnlyVisibleItems(t *testing.T) {
	t.Parallel()
	v := newView(80, 24)
	var msgs []llm.Message
	for i := range 10000 {
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("question %d", i)},
			llm.Message{Role: llm.RoleAssistant, Content: fmt.Sprintf("answer %d", i)})
	}
	v.LoadHistory(msgs)
	if v.Len() != 20000 {
		t.Fatalf("%d items", v.Len())
	}
	if s := screen(v); !strings.Contains(s, "answer 9999") {
		t.Errorf("bottom:\n%s", s)
	}
	if n := rendered(v); n > 30 {
		t.Errorf("%d items rendered for one screen", n)
	}
	v.Top()
	if s := screen(v); !strings.Contains(s, "question 0") || strings.Contains(s, "answer 9999") {
		t.Errorf("top:\n%s", s)
	}
	if n := rendered(v); n > 60 {
		t.Errorf("%d items rendered after jumping to the top", n)
	}
}

func rendered(v *View) int {
	n := 0
	for _, it := range v.items {
		if it.lines != nil {
			n++
		}
	}
	return n
}

func TestScrollRoundTrip(t *testing.T) {
	t.Parallel()
	v := newView(40, 8)
	for i := range 30 {
		v.AddNotice(fmt.Sprintf("notice %d", i))
	}
	bottom := screen(v)
	v.ScrollUp(5)
	if v.Following() {
		t.Fatal("still following after scrolling up")
	}
	up := screen(v)
	if up == bottom || !strings.Contains(up, "notice 26") || strings.Contains(up, "notice 29") {
		t.Errorf("scrolled screen:\n%s", up)
	}
	v.ScrollDown(5)
	if !v.Following() || screen(v) != bottom {
		t.Errorf("scrolling back down does not return to the bottom:\n%s", screen(v))
	}
	v.PageUp()
	v.PageUp()
	v.Bottom()
	if screen(v) != bottom {
		t.Error("Bottom does not return to the latest line")
	}
	v.ScrollUp(1000)
	if s := screen(v); !strings.HasPrefix(s, "• notice 0") {
		t.Errorf("scrolling past the top:\n%s", s)
	}
}

// An item is rendered once per width: drawing again reuses its lines, a new
// width renders it again.
func TestRenderCacheByWidth(t *testing.T) {
	t.Parallel()
	v := newView(50, 10)
	v.Apply(agent.Event{Kind: agent.EventTextDelta, Text: "# Heading\n\nsome text"})
	v.Render()
	first := &v.items[0].lines[0]
	v.Render()
	if &v.items[0].lines[0] != first {
		t.Error("an unchanged item was rendered again")
	}
	v.SetSize(30, 10)
	v.Render()
	if &v.items[0].lines[0] == first || v.items[0].width != 30 {
		t.Error("a new width did not re-render")
	}
}

func TestLoadHistory(t *testing.T) {
	t.Parallel()
	v := newView(80, 30)
	v.LoadHistory([]llm.Message{
		{Role: llm.RoleUser, Content: "list files"},
		{Role: llm.RoleAssistant, Reasoning: "use glob", ToolCalls: []llm.ToolCall{{ID: "g", Name: "glob", Arguments: `{"pattern":"*.go"}`}}},
		{Role: llm.RoleTool, ToolCallID: "g", ToolName: "glob", Content: "main.go"},
		{Role: llm.RoleUser, Content: "reminder", Synthetic: true},
		{Role: llm.RoleAssistant, Content: "There is main.go."},
	})
	s := screen(v)
	for _, want := range []string{"❯ list files", "✓ glob  *.go", "main.go", "There is main.go."} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "reminder") {
		t.Error("a synthetic reminder is shown")
	}
}

func TestTurnEndNotices(t *testing.T) {
	t.Parallel()
	v := newView(60, 10)
	v.Apply(agent.Event{Kind: agent.EventTurnEnd, Stop: agent.StopCancelled})
	v.Apply(agent.Event{Kind: agent.EventError, Text: "server said no"})
	s := screen(v)
	if !strings.Contains(s, "interrupted") || !strings.Contains(s, "✗ server said no") {
		t.Errorf("screen:\n%s", s)
	}
}
