package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/etalab-ia/albert-code/internal/agent"
)

// A rate-limit wait shows in the status line as a countdown with what it waits for,
// and in the conversation as a notice; the countdown goes once the model answers.
func TestARateLimitWaitIsCountedDown(t *testing.T) {
	m := newScreen(t, 120, 40)
	m.busy, m.busySince = true, time.Now()
	m.feed(agent.Event{Kind: agent.EventRateLimitWait, WaitSeconds: 45, Text: "the server asked to wait 45s"})
	status := ansi.Strip(m.statusLine())
	if !strings.Contains(status, "waiting 45s") && !strings.Contains(status, "waiting 44s") {
		t.Fatalf("status line %q, want a countdown from 45 s", status)
	}
	if !strings.Contains(status, "the server asked to wait 45s") {
		t.Fatalf("status line %q, want what it waits for", status)
	}
	if screen := ansi.Strip(m.Render()); !strings.Contains(screen, "waiting 45s: the server asked to wait 45s") {
		t.Fatalf("the conversation has no notice of the wait:\n%s", screen)
	}
	m.feed(agent.Event{Kind: agent.EventTextDelta, Text: "hi"})
	if status := ansi.Strip(m.statusLine()); strings.Contains(status, "waiting") {
		t.Fatalf("status line %q still counts down after the answer began", status)
	}
}
