package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/permission"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// runTools executes the calls of one assistant message and records one result per
// call, in call order, whatever happens: the provider rejects a history where a call
// has no result. Consecutive read-only calls run in parallel; the others one by one.
func (a *Agent) runTools(ctx context.Context, calls []llm.ToolCall, emit func(Event)) {
	results := make([]llm.Message, len(calls))
	for i := 0; i < len(calls); {
		if ctx.Err() != nil {
			results[i] = cancelledResult(calls[i])
			i++
			continue
		}
		j := i + 1
		if a.readOnly(calls[i]) {
			for j < len(calls) && a.readOnly(calls[j]) {
				j++
			}
		}
		var wg sync.WaitGroup
		for k := i; k < j; k++ {
			wg.Go(func() { results[k] = a.runOne(ctx, calls[k], emit) })
		}
		wg.Wait()
		i = j
	}
	a.add(results...)
}

func (a *Agent) readOnly(call llm.ToolCall) bool {
	t, ok := a.opts.Tools.Get(call.Name)
	return ok && t.Info().ReadOnly
}

func (a *Agent) runOne(ctx context.Context, call llm.ToolCall, emit func(Event)) llm.Message {
	args := json.RawMessage(call.Arguments)
	if strings.TrimSpace(call.Arguments) == "" {
		args = json.RawMessage("{}")
	}
	ev := ToolEvent{ID: call.ID, Name: call.Name, Arguments: args}
	finish := func(res tool.Result) llm.Message {
		ev.Output, ev.IsError, ev.Truncated, ev.Display = res.Output, res.IsError, res.Truncated, res.Display
		out := ev
		emit(Event{Kind: EventToolCallResult, Tool: &out})
		return llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, ToolName: call.Name, Content: res.Output, IsError: res.IsError}
	}

	t, ok := a.opts.Tools.Get(call.Name)
	if why, withheld := a.opts.Withheld[call.Name]; !ok && withheld {
		ev.Refused = true
		return finish(tool.Errorf("%s is not available: %s. Do without it; the available tools are: %s", call.Name, why, a.toolNames()))
	}
	if !ok {
		return finish(tool.Errorf("unknown tool %q; the available tools are: %s", call.Name, a.toolNames()))
	}
	if !json.Valid(args) {
		return finish(tool.Errorf("the arguments for %s are not valid JSON: %s; send one JSON object matching its schema", call.Name, abbreviate(call.Arguments, 200)))
	}
	if a.opts.Hooks != nil {
		v := a.opts.Hooks.BeforeTool(ctx, ev)
		emitNotices(emit, v.Notices)
		if v.Deny {
			ev.Refused = true
			return finish(tool.Errorf("a hook refused this call: %s", v.Reason))
		}
		if v.Arguments != nil {
			args, ev.Arguments = v.Arguments, v.Arguments
		}
	}
	info := t.Info()
	var paths []string
	if p, ok := t.(tool.Pather); ok {
		paths = p.Paths(args)
	}
	res, allowed, asked := a.authorize(ctx, info, paths, ev, emit)
	if !allowed {
		ev.Refused = ctx.Err() == nil
		return finish(res)
	}
	if a.opts.Confine != nil {
		ctx = sandbox.WithMode(ctx, a.opts.Confine(info, args, asked))
	}

	start := ev
	emit(Event{Kind: EventToolCallStart, Tool: &start})
	res, err := tool.Invoke(ctx, t, tool.Call{ID: call.ID, Args: args, Progress: func(text string) {
		p := ToolEvent{ID: call.ID, Name: call.Name}
		emit(Event{Kind: EventToolCallUpdate, Tool: &p, Text: text})
	}})
	if ctx.Err() != nil {
		// Whatever the tool managed, the user stopped it: say so, keep its output.
		res.IsError = true
		res.Output = strings.TrimSpace("The user cancelled this call.\n" + res.Output)
	} else if err != nil {
		emit(Event{Kind: EventError, Text: err.Error()})
	}
	if a.opts.Hooks != nil && ctx.Err() == nil {
		done := ev
		done.Output, done.IsError = res.Output, res.IsError
		v := a.opts.Hooks.AfterTool(ctx, done)
		emitNotices(emit, v.Notices)
		if v.Deny {
			res.IsError = true
			res.Output = strings.TrimSpace(res.Output + "\n\nA hook rejected this result: " + v.Reason)
		}
	}
	return finish(res)
}

// authorize applies the permission policy, asking the Approver when the policy says
// ask. When it refuses, it returns the result the model should read; asked says a
// person approved the call.
func (a *Agent) authorize(ctx context.Context, info tool.Info, paths []string, ev ToolEvent, emit func(Event)) (res tool.Result, allowed, asked bool) {
	v := a.opts.Policy.CheckCall(info, paths, ev.Arguments)
	switch v.Level {
	case permission.Always:
		return tool.Result{}, true, false
	case permission.Never:
		return tool.Errorf("permission denied: %s", v.Reason), false, false
	}
	res, allowed = a.ask(ctx, info, v, ev, emit)
	return res, allowed, allowed
}

// ask puts a call the policy says to ask about to the Approver.
func (a *Agent) ask(ctx context.Context, info tool.Info, v permission.Verdict, ev ToolEvent, emit func(Event)) (tool.Result, bool) {
	ev.Reason = v.Reason
	req := ev
	emit(Event{Kind: EventPermission, Tool: &req})
	if a.opts.Approver == nil {
		why := ""
		if v.Reason != "" {
			why = " (" + v.Reason + ")"
		}
		allow := fmt.Sprintf("config [tools.%s] permission = \"always\", or --agent auto-approve", info.Name)
		if v.Allow != "" {
			allow = v.Allow // this ask is one neither of those lifts
		}
		return tool.Errorf("%s needs approval%s, but no one can approve calls in this mode. "+
			"Do without it, or tell the user to allow it (%s)", info.Name, why, allow), false
	}
	d, err := a.opts.Approver.Approve(ctx, ev)
	if err != nil {
		if ctx.Err() != nil {
			return cancelledToolResult(), false
		}
		return tool.Errorf("could not ask for approval: %v", err), false
	}
	if !d.Allow {
		msg := "The user denied this call."
		if d.Feedback != "" {
			msg += " They said: " + d.Feedback
		}
		return tool.Errorf("%s", msg), false
	}
	if d.ForSession {
		a.opts.Policy.GrantForSession(info.Name)
	}
	return tool.Result{}, true
}

func (a *Agent) toolNames() string {
	var names []string
	for _, t := range a.opts.Tools.All() {
		names = append(names, t.Info().Name)
	}
	return strings.Join(names, ", ")
}

func cancelledToolResult() tool.Result {
	return tool.Errorf("The user cancelled this call before it ran.")
}

func cancelledResult(call llm.ToolCall) llm.Message {
	return llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, ToolName: call.Name,
		Content: cancelledToolResult().Output, IsError: true, Synthetic: true}
}

// abbreviate cuts s to about n bytes on a rune boundary, saying how long it was.
func abbreviate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:cut], len(s))
}
