package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// TestAutoContinueThroughTheLoop drives the loop with a model that keeps stopping
// halfway: while todos are open it is sent back Max times per prompt, the continue
// message reaching the model, the session log and the user; the next prompt gets
// Max again.
func TestAutoContinueThroughTheLoop(t *testing.T) {
	t.Parallel()
	todos := []Todo{{Content: "write the parser", Status: "completed"}, {Content: "write the tests", Status: "pending"}}
	var turns []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error)
	for range 6 {
		turns = append(turns, say("I will now write the tests.", llm.Usage{}))
	}
	p := &scripted{turns: turns}
	log := &memLog{}
	a := newAgent(t, p, Options{Log: log, Middlewares: []Middleware{&AutoContinue{Max: 2, Items: func() []Todo { return todos }}}})

	for run := 1; run <= 2; run++ {
		var notices []string
		res := a.Run(context.Background(), "build it", func(ev Event) {
			if ev.Kind == EventNotice {
				notices = append(notices, ev.Text)
			}
		})
		if res.Stop != StopEndTurn || res.Err != nil {
			t.Fatalf("run %d: stop %q, err %v", run, res.Stop, res.Err)
		}
		if len(p.requests) != 3*run {
			t.Fatalf("run %d: %d model calls so far, want %d (one answer and two continues per prompt)", run, len(p.requests), 3*run)
		}
		if len(notices) != 2 || !strings.Contains(notices[0], "auto-continue") {
			t.Errorf("run %d: notices %q, want two auto-continue notices", run, notices)
		}
	}
	last := p.requests[len(p.requests)-1].Messages
	cont := last[len(last)-1]
	if cont.Role != llm.RoleUser || !strings.HasPrefix(cont.Content, "<continue>") || !strings.Contains(cont.Content, "write the tests") ||
		strings.Contains(cont.Content, "write the parser") {
		t.Errorf("the model was sent %+v, want a <continue> message listing only the open todo", cont)
	}
	n := 0
	for _, m := range log.msgs {
		if m.Synthetic && strings.HasPrefix(m.Content, "<continue>") {
			n++
		}
	}
	if n != 4 {
		t.Errorf("session log holds %d continue messages, want 4", n)
	}
}

func TestAutoContinueStaysQuiet(t *testing.T) {
	t.Parallel()
	open := []Todo{{Content: "ship", Status: "in_progress"}}
	done := []Todo{{Content: "ship", Status: "completed"}, {Content: "skip", Status: "cancelled"}}
	tests := []struct {
		name   string
		items  []Todo
		max    int
		answer string
	}{
		{"every todo closed", done, 3, "Done."},
		{"no todo list", nil, 3, "Done."},
		{"switched off", open, 0, "Done."},
		{"empty answer", open, 3, "  "},
	}
	for _, tt := range tests {
		p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){say(tt.answer, llm.Usage{}), say("again", llm.Usage{})}}
		a := newAgent(t, p, Options{Middlewares: []Middleware{&AutoContinue{Max: tt.max, Items: func() []Todo { return tt.items }}}})
		if res := a.Run(context.Background(), "go", nil); res.Stop != StopEndTurn || len(p.requests) != 1 {
			t.Errorf("%s: stop %q after %d calls, want end_turn after 1", tt.name, res.Stop, len(p.requests))
		}
	}
}

// TestAutoContinueObeysTheTurnLimit: a continue is one more model call, so the
// turn limit still bounds the run.
func TestAutoContinueObeysTheTurnLimit(t *testing.T) {
	t.Parallel()
	p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){say("a", llm.Usage{}), say("b", llm.Usage{}), say("c", llm.Usage{})}}
	items := []Todo{{Content: "ship", Status: "pending"}}
	a := newAgent(t, p, Options{Middlewares: []Middleware{TurnLimit{Max: 2}, &AutoContinue{Max: 5, Items: func() []Todo { return items }}}})
	if res := a.Run(context.Background(), "go", nil); res.Stop != StopMaxTurns || len(p.requests) != 2 {
		t.Errorf("stop %q after %d calls, want max_turns after 2", res.Stop, len(p.requests))
	}
}
