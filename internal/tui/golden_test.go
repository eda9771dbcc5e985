package tui

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/textdiff"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
	"github.com/etalab-ia/albert-code/internal/tui/dialog"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// sizes are the two terminal sizes every screen is checked at.
var sizes = [][2]int{{80, 24}, {120, 40}}

// newScreen builds a UI at a size with the footer's figures set, as after opening
// a session on mistral-medium.
func newScreen(t *testing.T, w, h int) *Model {
	t.Helper()
	m := New(Options{Color: true, WorkDir: t.TempDir()})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.model, m.profile = "mistral-medium", "default"
	m.stats.ContextWindow = 131072
	return m
}

func (m *Model) feed(evs ...agent.Event) {
	for _, ev := range evs {
		m.Update(agentEventMsg{ev: ev, gen: m.gen})
	}
}

func args(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// checkGolden compares the screen, colours stripped, with testdata/<name>_<w>x<h>.golden.
func checkGolden(t *testing.T, name string, m *Model) {
	t.Helper()
	screen := m.Render()
	if got := lineCount(screen); got != m.height && m.tooSmall() == "" {
		t.Errorf("%s: the screen has %d lines, want exactly %d", name, got, m.height)
	}
	lines := strings.Split(ansi.Strip(screen), "\n")
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > m.width {
			t.Errorf("%s: line %d is %d columns wide, more than %d: %q", name, i+1, w, m.width, l)
		}
		lines[i] = strings.TrimRight(l, " ")
	}
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", fmt.Sprintf("%s_%dx%d.golden", name, m.width, m.height))
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", name, path, got)
	}
}

func TestGoldenScreens(t *testing.T) {
	editArgs := args(builtin.EditParams{Path: "main.go", OldString: "func main() {\n\tprintln(\"hi\")\n}\n", NewString: "func main() {\n\tfmt.Println(\"hello\")\n}\n"})
	old := "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"
	newText := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n"
	unified, added, removed := textdiff.Unified("a/main.go", "b/main.go", old, newText)
	fd := builtin.FileDiff{Path: "main.go", Old: old, New: newText, Unified: unified, Added: added, Removed: removed}
	markdown := "## Plan\n\nThe bug is in `parse`: it **drops** the last line.\n\n" +
		"```go\nfunc parse(s string) []string {\n\treturn strings.Split(s, \"\\n\")\n}\n```\n\n" +
		"1. read the file\n2. fix the loop\n3. run the tests\n\n> Tests pass after the fix.\n"

	screens := []struct {
		name  string
		build func(m *Model)
	}{
		{"footer", func(m *Model) {
			m.stats.Usage = llm.Usage{InputTokens: 45678, OutputTokens: 1234}
			m.stats.ContextTokens = 52000
			m.stats.Cost = 0.0123
			m.chat.AddUser("hello")
			m.feed(agent.Event{Kind: agent.EventTextDelta, Text: "Hello! How can I help?"}, agent.Event{Kind: agent.EventTurnEnd, Stop: agent.StopEndTurn})
		}},
		{"markdown", func(m *Model) {
			m.chat.AddUser("why does the parser lose lines?")
			m.feed(agent.Event{Kind: agent.EventReasoningDelta, Text: "The user asks about parse.\nLet me look at the split.\nIt keeps a trailing empty field."},
				agent.Event{Kind: agent.EventTextDelta, Text: markdown}, agent.Event{Kind: agent.EventTurnEnd, Stop: agent.StopEndTurn})
		}},
		{"diff", func(m *Model) {
			m.chat.AddUser("print hello with fmt")
			call := agent.ToolEvent{ID: "c1", Name: "edit", Arguments: editArgs}
			res := call
			res.Output, res.Display = "Edited main.go: 1 replacement (+3 -1 lines)", fd
			m.feed(agent.Event{Kind: agent.EventToolCallStart, Tool: &call}, agent.Event{Kind: agent.EventToolCallResult, Tool: &res},
				agent.Event{Kind: agent.EventTextDelta, Text: "Done: `main.go` now imports fmt."})
		}},
		{"approval", func(m *Model) {
			m.chat.AddUser("clean the build")
			call := agent.ToolEvent{ID: "c2", Name: "bash", Arguments: args(map[string]string{"command": "rm -rf build/ && go build ./..."}), Reason: "bash command rm is not in the allow list"}
			m.feed(agent.Event{Kind: agent.EventPermission, Tool: &call})
			m.Update(approvalMsg{call: call, reply: make(chan agent.Decision, 1)})
		}},
		{"approval_edit", func(m *Model) {
			call := agent.ToolEvent{ID: "c3", Name: "edit", Arguments: editArgs}
			m.feed(agent.Event{Kind: agent.EventPermission, Tool: &call})
			m.Update(approvalMsg{call: call, reply: make(chan agent.Decision, 1)})
		}},
		{"question", func(m *Model) {
			m.Update(questionMsg{questions: []builtin.Question{{
				Question: "Which database should the service use?", Header: "Database",
				Options: []builtin.Option{{Label: "PostgreSQL", Description: "what production runs"}, {Label: "SQLite", Description: "one file, no server"}},
			}}, reply: make(chan questionReply, 1)})
		}},
		{"setup", func(m *Model) {
			m.o.Setup = &Setup{Providers: []dialog.ProviderOption{
				{Name: "albert", BaseURL: "https://albert.api.etalab.gouv.fr/v1", KeyEnv: "ALBERT_API_KEY", Models: []string{"mistral-medium", "qwen"}},
				{Name: "openai", BaseURL: "https://api.openai.com/v1", KeyEnv: "OPENAI_API_KEY"},
				{Name: "ollama", BaseURL: "http://127.0.0.1:11434/v1"},
			}, Current: "albert"}
			m.openSetup()
		}},
		{"trust", func(m *Model) {
			m.askTrust(&Trust{Dir: "/home/ada/src/project"})
		}},
	}
	for _, sc := range screens {
		for _, sz := range sizes {
			m := newScreen(t, sz[0], sz[1])
			sc.build(m)
			checkGolden(t, sc.name, m)
		}
	}
}

func TestGoldenTooSmall(t *testing.T) {
	m := New(Options{Color: true})
	m.Update(tea.WindowSizeMsg{Width: 30, Height: 8})
	checkGolden(t, "too_small", m)
}
