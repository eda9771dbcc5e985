package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// A skill is a slash command: /help lists it, and /name [request] sends its
// instructions and the request as the prompt.
func TestSkillRunsAsASlashCommand(t *testing.T) {
	t.Parallel()
	l := newLoopVars(t, 100, 30, nil, func(o *Options) {
		dir := filepath.Join(o.WorkDir, ".albert-code", "skills", "deploy")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		skill := "---\nname: deploy\ndescription: Ship the release.\n---\nRun the release checklist.\n"
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
			t.Fatal(err)
		}
	}, fakemodel.Turn{Text: []string{"shipped"}})
	l.ready()
	l.typeLine("/help")
	l.idle()
	if !l.shows("/deploy") || !l.shows("Ship the release.") {
		t.Errorf("/help does not list the skill:\n%s", l.screen())
	}
	l.typeLine("/deploy to staging")
	l.idle()
	if !l.shows("shipped") {
		t.Fatalf("no answer on screen:\n%s", l.screen())
	}
	body := l.srv.ModelRequests()[0].Body
	for _, want := range []string{"Run the release checklist.", "Request: to staging"} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %q: %s", want, body)
		}
	}
}

// Ctrl+Z suspends the program, as in a shell.
func TestCtrlZSuspends(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil)
	l.ready()
	_, cmd := l.m.Update(tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl})
	if cmd == nil {
		t.Fatal("ctrl+z returned no command")
	}
	if _, ok := cmd().(tea.SuspendMsg); !ok {
		t.Fatal("ctrl+z does not suspend")
	}
}
