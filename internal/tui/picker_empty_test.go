package tui

import (
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// A session left before its first prompt has nothing to resume: the picker leaves
// it out, and counts in the singular when there is one message.
func TestResumePickerLeavesOutEmptySessions(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil, fakemodel.Turn{Text: []string{"old answer"}})
	l.ready()
	l.typeLine("the old question")
	l.idle()
	l.typeLine("/clear") // an empty session, left at once
	l.typeLine("/clear")
	l.typeLine("/resume")
	l.waitScreen("Resume a session")
	if !l.shows("the old question") || l.shows("no prompt yet") {
		t.Fatalf("picker:\n%s", l.screen())
	}
}

func TestCountOfIsSingularForOne(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0 messages", 1: "1 message", 2: "2 messages"} {
		if got := countOf(n, "message"); got != want {
			t.Errorf("countOf(%d) = %q, want %q", n, got, want)
		}
	}
}
