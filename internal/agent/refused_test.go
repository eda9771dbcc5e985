package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/permission"
)

// A call that did not run because something refused it is marked Refused, so faces
// can tell the user; a call that ran and failed, or an unknown tool, is not.
func TestRefusedCallsAreMarked(t *testing.T) {
	t.Parallel()
	sl := &sleeper{name: "act"}
	p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){
		call(
			llm.ToolCall{ID: "asked", Name: "act", Arguments: args(sleepParams{Tag: "one"})},
			llm.ToolCall{ID: "withheld", Name: "edit", Arguments: "{}"},
			llm.ToolCall{ID: "unknown", Name: "teleport", Arguments: "{}"},
		),
		say("Fixed.", llm.Usage{}),
	}}
	a := newAgent(t, p, Options{
		Policy:   &permission.Policy{WorkDir: t.TempDir(), Trusted: true},
		Withheld: map[string]string{"edit": "it is not allowed in plan mode"},
	}, sl.tool())
	var events []Event
	a.Run(context.Background(), "go", collect(&events))
	refused := map[string]bool{}
	outputs := map[string]string{}
	for _, e := range events {
		if e.Kind == EventToolCallResult {
			refused[e.Tool.ID], outputs[e.Tool.ID] = e.Tool.Refused, e.Tool.Output
		}
	}
	want := map[string]bool{"asked": true, "withheld": true, "unknown": false}
	for id, w := range want {
		if refused[id] != w {
			t.Errorf("call %s: Refused = %v, want %v (output %q)", id, refused[id], w, outputs[id])
		}
	}
	if !strings.Contains(outputs["withheld"], "edit is not available: it is not allowed in plan mode") {
		t.Errorf("withheld tool's result = %q, want the rule that withheld it", outputs["withheld"])
	}
}
