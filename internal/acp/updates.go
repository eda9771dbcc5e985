package acp

import (
	"context"
	"fmt"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/agent"
)

// maxProgress bounds the live output shown for a running tool: ACP replaces a call's
// content on every update, so the tail is resent each time (a judgement: enough
// lines to follow a build, small enough to resend often).
const maxProgress = 16 << 10

// translator turns one prompt's agent events into session updates. The agent emits
// events one at a time, so it needs no lock.
type translator struct {
	ctx context.Context
	ss  *session
	// announced holds the tool calls the client has a tool_call for; progress their
	// live output.
	announced map[string]bool
	progress  map[string]string
	// compaction is the id of the pseudo tool call that shows a running compaction
	// (ACP has no compaction update).
	compaction sdk.ToolCallId
}

func newTranslator(ctx context.Context, ss *session) *translator {
	return &translator{ctx: ctx, ss: ss, announced: map[string]bool{}, progress: map[string]string{}}
}

func (t *translator) emit(ev agent.Event) {
	ss := t.ss
	switch ev.Kind {
	case agent.EventTextDelta:
		ss.send(t.ctx, sdk.UpdateAgentMessageText(ev.Text))
	case agent.EventReasoningDelta:
		ss.send(t.ctx, sdk.UpdateAgentThoughtText(ev.Text))
	case agent.EventNotice, agent.EventRetry, agent.EventError:
		ss.send(t.ctx, sdk.UpdateAgentThoughtText("\n"+ev.Text+"\n"))
	case agent.EventRateLimitWait:
		wait := time.Duration(ev.WaitSeconds * float64(time.Second)).Round(100 * time.Millisecond)
		ss.send(t.ctx, sdk.UpdateAgentThoughtText(fmt.Sprintf("\nwaiting %s: %s\n", wait, ev.Text)))
	case agent.EventPermission:
		t.announce(ev.Tool, sdk.ToolCallStatusPending)
	case agent.EventToolCallStart:
		if !t.announce(ev.Tool, sdk.ToolCallStatusInProgress) {
			ss.send(t.ctx, sdk.UpdateToolCall(sdk.ToolCallId(ev.Tool.ID), sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress)))
		}
	case agent.EventToolCallUpdate:
		out := t.progress[ev.Tool.ID] + ev.Text
		if len(out) > maxProgress {
			out = out[len(out)-maxProgress:]
		}
		t.progress[ev.Tool.ID] = out
		ss.send(t.ctx, sdk.UpdateToolCall(sdk.ToolCallId(ev.Tool.ID),
			sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(out))})))
	case agent.EventToolCallResult:
		t.finish(ev.Tool)
	case agent.EventCompactionStart:
		t.compaction = sdk.ToolCallId("compaction-" + randomID())
		ss.send(t.ctx, sdk.StartToolCall(t.compaction, "Compacting the conversation",
			sdk.WithStartKind(sdk.ToolKindThink), sdk.WithStartStatus(sdk.ToolCallStatusInProgress)))
	case agent.EventCompactionEnd:
		ss.send(t.ctx, sdk.UpdateToolCall(t.compaction, sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted),
			sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(ev.Text))})))
	case agent.EventUsage:
		ss.sendUsage(t.ctx)
	}
}

// announce sends the tool_call for a call the client does not know yet, and
// reports whether it did.
func (t *translator) announce(tool *agent.ToolEvent, status sdk.ToolCallStatus) bool {
	if t.announced[tool.ID] {
		return false
	}
	t.announced[tool.ID] = true
	cwd := t.ss.cwd
	t.ss.send(t.ctx, sdk.StartToolCall(sdk.ToolCallId(tool.ID), toolTitle(tool.Name, tool.Arguments, cwd),
		sdk.WithStartKind(toolKind(tool.Name)), sdk.WithStartStatus(status),
		sdk.WithStartRawInput(rawInput(tool.Arguments)),
		sdk.WithStartLocations(toolLocations(tool.Name, tool.Arguments, cwd))))
	return true
}

// finish reports a call's result, and the plan when the call changed the todo list.
func (t *translator) finish(tool *agent.ToolEvent) {
	t.announce(tool, sdk.ToolCallStatusPending)
	delete(t.progress, tool.ID)
	status := sdk.ToolCallStatusCompleted
	if tool.IsError {
		status = sdk.ToolCallStatusFailed
	}
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(status), sdk.WithUpdateRawOutput(map[string]any{"output": tool.Output, "is_error": tool.IsError})}
	if term, ok := t.ss.terminals.LoadAndDelete(tool.ID); ok {
		opts = append(opts, sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolTerminalRef(term.(string))}))
	} else if c := resultContent(tool.Name, tool.Output, tool.Display, t.ss.cwd); c != nil {
		opts = append(opts, sdk.WithUpdateContent(c))
	}
	t.ss.send(t.ctx, sdk.UpdateToolCall(sdk.ToolCallId(tool.ID), opts...))
	if entries, ok := planEntries(tool.Display); ok && !tool.IsError {
		t.ss.send(t.ctx, sdk.UpdatePlan(entries...))
	}
}
