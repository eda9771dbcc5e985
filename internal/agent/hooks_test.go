package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/permission"
)

// fakeHooks decides by the call's tag and records what it saw.
type fakeHooks struct {
	mu      sync.Mutex
	before  []string
	after   []string
	runStop StopReason
}

func (h *fakeHooks) BeforeTool(_ context.Context, call ToolEvent) HookVerdict {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.before = append(h.before, string(call.Arguments))
	var p sleepParams
	_ = json.Unmarshal(call.Arguments, &p)
	switch p.Tag {
	case "forbidden":
		return HookVerdict{Deny: true, Reason: "not on Fridays", Notices: []string{"guard hook denied sleep"}}
	case "rewrite-me":
		return HookVerdict{Arguments: json.RawMessage(`{"millis":1,"tag":"rewritten"}`)}
	}
	return HookVerdict{}
}

func (h *fakeHooks) AfterTool(_ context.Context, call ToolEvent) HookVerdict {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.after = append(h.after, call.Output)
	if strings.Contains(call.Output, "lint-fails") {
		return HookVerdict{Deny: true, Reason: "lint: 2 problems", Notices: []string{"after hook timed out"}}
	}
	return HookVerdict{}
}

func (h *fakeHooks) AfterRun(_ context.Context, res Result) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.runStop = res.Stop
	return []string{"after_turn hook failed"}
}

func TestHooksAroundToolCalls(t *testing.T) {
	t.Parallel()
	sl := &sleeper{name: "sleep"}
	p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){
		call(llm.ToolCall{ID: "a", Name: "sleep", Arguments: args(sleepParams{Millis: 1, Tag: "forbidden"})},
			llm.ToolCall{ID: "b", Name: "sleep", Arguments: args(sleepParams{Millis: 1, Tag: "rewrite-me"})},
			llm.ToolCall{ID: "c", Name: "sleep", Arguments: args(sleepParams{Millis: 1, Tag: "lint-fails"})}),
		say("done", llm.Usage{}),
	}}
	var classified []string
	var mu sync.Mutex
	policy := &permission.Policy{WorkDir: t.TempDir(), Trusted: true, AutoApprove: true,
		Classifiers: map[string]func(json.RawMessage) (permission.Verdict, bool){"sleep": func(a json.RawMessage) (permission.Verdict, bool) {
			mu.Lock()
			defer mu.Unlock()
			classified = append(classified, string(a))
			return permission.Verdict{}, false
		}}}
	h := &fakeHooks{}
	a := newAgent(t, p, Options{Hooks: h, Policy: policy}, sl.tool())
	var events []Event
	res := a.Run(context.Background(), "go", collect(&events))
	if res.Stop != StopEndTurn {
		t.Fatalf("stop = %s (%v)", res.Stop, res.Err)
	}
	results := map[string]llm.Message{}
	for _, m := range a.History() {
		if m.Role == llm.RoleTool {
			results[m.ToolCallID] = m
		}
	}
	if r := results["a"]; !r.IsError || r.Content != "a hook refused this call: not on Fridays" {
		t.Errorf("denied call result = %+v", r)
	}
	if r := results["b"]; r.IsError || r.Content != "slept rewritten" {
		t.Errorf("rewritten call result = %+v", r)
	}
	if r := results["c"]; !r.IsError || !strings.HasSuffix(r.Content, "A hook rejected this result: lint: 2 problems") || !strings.HasPrefix(r.Content, "slept lint-fails") {
		t.Errorf("after-denied result = %+v", r)
	}
	// The denied call never reached the permission check; the rewritten one reached
	// it with the hook's arguments.
	if len(classified) != 2 || classified[0] != `{"millis":1,"tag":"rewritten"}` {
		t.Errorf("the permission check saw %v", classified)
	}
	if len(h.after) != 2 {
		t.Errorf("after hooks ran for %v, want the two calls that ran", h.after)
	}
	var notices []string
	endAt := -1
	for i, ev := range events {
		if ev.Kind == EventNotice {
			notices = append(notices, ev.Text)
		}
		if ev.Kind == EventTurnEnd {
			endAt = i
		}
	}
	want := []string{"guard hook denied sleep", "after hook timed out", "after_turn hook failed"}
	if strings.Join(notices, "|") != strings.Join(want, "|") {
		t.Errorf("notices = %q, want %q", notices, want)
	}
	if endAt != len(events)-1 || h.runStop != StopEndTurn {
		t.Errorf("turn end at %d of %d, after_turn saw %q", endAt, len(events), h.runStop)
	}
	checkHistory(t, a.History())
}
