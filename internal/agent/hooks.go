package agent

import (
	"context"
	"encoding/json"
)

// Hooks are the user's checks around tool calls and at the end of a run (agentenv
// builds them from [hooks]). A hook that fails only adds a notice: the turn goes on.
type Hooks interface {
	// BeforeTool runs once a call's arguments parse, before the permission check,
	// which then sees the arguments a hook rewrote.
	BeforeTool(ctx context.Context, call ToolEvent) HookVerdict
	// AfterTool runs once a call that ran has its result (call.Output, IsError).
	AfterTool(ctx context.Context, call ToolEvent) HookVerdict
	// AfterRun runs when a run ends, before its turn-end event, and returns notices.
	AfterRun(ctx context.Context, res Result) []string
}

// HookVerdict is what the hooks decided about a call.
type HookVerdict struct {
	// Deny refuses the call (before) or turns its result into an error (after);
	// Reason is what the model reads.
	Deny   bool
	Reason string
	// Arguments, when not nil, replace the call's arguments (before only).
	Arguments json.RawMessage
	// Notices are shown to the user (a hook that failed or timed out).
	Notices []string
}

func emitNotices(emit func(Event), notices []string) {
	for _, n := range notices {
		emit(Event{Kind: EventNotice, Text: n})
	}
}
