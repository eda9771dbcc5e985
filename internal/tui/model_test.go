package tui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

func TestPromptStreamsAndFooterCounts(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 80, 24, nil, fakemodel.Turn{Text: []string{"Hello ", "**there**"}, Usage: &fakemodel.Usage{PromptTokens: 1500, CompletionTokens: 20}})
	l.ready()
	if !l.shows("default · mistral-medium") {
		t.Fatalf("footer before the prompt:\n%s", l.screen())
	}
	l.typeLine("hi")
	l.idle()
	if !l.shows("Hello there") || !l.shows("↑1.5k ↓20") {
		t.Errorf("after the turn:\n%s", l.screen())
	}
}

func TestInitialPromptWaitsForTheSession(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 80, 24, func(o *Options) { o.InitialPrompt = "from the command line" }, fakemodel.Turn{Text: []string{"got it"}})
	l.waitScreen("got it")
	if !l.shows("❯ from the command line") {
		t.Errorf("screen:\n%s", l.screen())
	}
}

func TestEscInterruptsAndPromptWhileBusy(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 80, 24, nil, fakemodel.Turn{Text: []string{"working on it"}, Hang: true}, fakemodel.Turn{Text: []string{"second answer"}})
	l.ready()
	l.typeLine("long task")
	l.waitScreen("working on it")
	l.typeLine("another")
	if !l.shows("still working") || l.m.input.Value() != "another" {
		t.Errorf("a prompt sent while busy must be kept in the input:\n%s", l.screen())
	}
	l.press("esc")
	l.idle()
	l.waitScreen("interrupted")
	l.m.input.Reset()
	l.typeLine("again")
	l.idle()
	if !l.shows("second answer") {
		t.Errorf("the session does not go on after an interrupt:\n%s", l.screen())
	}
}

func TestCtrlCTwiceQuits(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 80, 24, nil)
	l.ready()
	l.press("draft", "ctrl+c")
	if l.m.input.Value() != "" || l.quit {
		t.Fatal("ctrl+c on a draft must clear it, not quit")
	}
	l.m.ctrlC = time.Time{}
	l.press("ctrl+c")
	if !l.shows("press ctrl+c again to quit") || l.quit {
		t.Fatalf("first ctrl+c:\n%s", l.screen())
	}
	l.m.ctrlC = time.Now().Add(-quitWindow - time.Second) // the first press expired
	l.press("ctrl+c")
	if l.m.quit {
		t.Fatal("an expired ctrl+c counted as the first of two")
	}
	l.press("ctrl+c")
	l.until("the program to quit", func() bool { return l.quit })
}

func TestApproveForSession(t *testing.T) {
	t.Parallel()
	write := func(id, path string) fakemodel.Turn {
		a, _ := json.Marshal(map[string]string{"path": path, "content": "x\n"})
		return fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{ID: id, Name: "write", Arguments: string(a)}}}
	}
	l := newLoop(t, 80, 30, nil, write("a", "one.txt"), write("b", "two.txt"), fakemodel.Turn{Text: []string{"both written"}})
	l.ready()
	l.typeLine("write two files")
	l.waitScreen("Allow this tool call?")
	l.press("2")
	l.idle()
	if !l.shows("both written") || !l.shows("write allowed for the rest of this session") {
		t.Errorf("the second call asked again or the turn stopped:\n%s", l.screen())
	}
}

func TestQuestionDialogAnswersTheTool(t *testing.T) {
	t.Parallel()
	q, _ := json.Marshal(builtin.AskParams{Questions: []builtin.Question{{Question: "Which colour?", Header: "Colour",
		Options: []builtin.Option{{Label: "red", Description: "warm"}, {Label: "blue", Description: "cold"}}}}})
	l := newLoop(t, 80, 24, nil,
		fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{ID: "q", Name: "ask_user_question", Arguments: string(q)}}},
		fakemodel.Turn{Text: []string{"blue it is"}})
	l.ready()
	l.typeLine("paint it")
	l.waitScreen("Which colour?")
	l.press("2")
	l.idle()
	if !l.shows("blue it is") {
		t.Fatalf("screen:\n%s", l.screen())
	}
	reqs := l.srv.ModelRequests()
	if body := reqs[len(reqs)-1].Body; !strings.Contains(body, "blue") {
		t.Errorf("the answer did not reach the model: %s", body)
	}
}

func TestResizeMidStream(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 200)
	l := newLoop(t, 100, 30, nil, fakemodel.Turn{Text: []string{long, "## Heading\n\n", long}, ChunkDelay: 20 * time.Millisecond})
	l.ready()
	l.typeLine("stream")
	l.waitScreen("word")
	for _, sz := range [][2]int{{60, 20}, {45, 14}, {20, 5}, {120, 40}} {
		l.handle(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		screen := l.m.Render()
		if n := strings.Count(screen, "\n") + 1; l.m.tooSmall() == "" && n != sz[1] {
			t.Errorf("%v: %d lines", sz, n)
		}
	}
	l.idle()
	if !l.shows("Heading") {
		t.Errorf("final screen:\n%s", l.screen())
	}
}

func TestTooSmallTerminal(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {39, 30}, {100, 11}, {10, 3}} {
		m := New(Options{})
		m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		s := m.Render()
		if sz[0] > 0 && !strings.Contains(s, "too small") && sz[0] >= 26 {
			t.Errorf("%v: %q", sz, s)
		}
		if n := strings.Count(s, "\n") + 1; sz[1] > 0 && n > sz[1] {
			t.Errorf("%v: %d lines on a %d-line screen", sz, n, sz[1])
		}
	}
}

func TestNoColor(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 80, 24, nil, fakemodel.Turn{Text: []string{"# Title\n\n```go\nfunc main() {}\n```\n"}})
	l.ready()
	l.typeLine("code please")
	l.idle()
	out := l.m.Render()
	for _, sgr := range []string{"\x1b[38;", "\x1b[48;", "\x1b[3"} {
		if strings.Contains(out, sgr) {
			t.Errorf("NO_COLOR screen has colour %q:\n%q", sgr, out)
		}
	}
	if !strings.Contains(ansi.Strip(out), "func main() {}") {
		t.Errorf("screen lost the code:\n%s", out)
	}
}
