package agentenv

import (
	"context"
	"encoding/json"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/hooks"
)

// agentHooks adapts the [hooks] runner to the agent loop's hook point.
type agentHooks struct{ r *hooks.Runner }

// hooksFor builds the agent's hooks from [hooks]; nil when there are none.
func (e *Env) hooksFor(sessionID string) (agent.Hooks, error) {
	r, err := hooks.New(e.Config.Hooks, e.WorkDir)
	if r == nil || err != nil {
		return nil, err
	}
	r.SessionID = func() string { return sessionID }
	r.Sandbox = e.Sandbox()
	return agentHooks{r: r}, nil
}

func (h agentHooks) BeforeTool(ctx context.Context, call agent.ToolEvent) agent.HookVerdict {
	return verdict(h.r.BeforeTool(ctx, hookCall(call)))
}

func (h agentHooks) AfterTool(ctx context.Context, call agent.ToolEvent) agent.HookVerdict {
	return verdict(h.r.AfterTool(ctx, hookCall(call), hooks.Result{Output: call.Output, IsError: call.IsError}))
}

func (h agentHooks) AfterRun(ctx context.Context, res agent.Result) []string {
	return h.r.AfterTurn(ctx, hooks.Turn{StopReason: string(res.Stop), Text: res.Text})
}

func hookCall(c agent.ToolEvent) hooks.Call {
	args := c.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	return hooks.Call{ID: c.ID, Name: c.Name, Arguments: args}
}

func verdict(v hooks.Verdict) agent.HookVerdict {
	return agent.HookVerdict{Deny: v.Deny, Reason: v.Reason, Arguments: v.Arguments, Notices: v.Warnings}
}

// toolHooksOnly keeps a sub-agent's tool calls under the user's hooks, but its end is
// not the end of the user's turn: after_turn hooks do not run for it.
type toolHooksOnly struct{ agent.Hooks }

func (toolHooksOnly) AfterRun(context.Context, agent.Result) []string { return nil }

// subAgentHooks are the hooks of a sub-agent's run; nil when there are none.
func (e *Env) subAgentHooks(parentID string) agent.Hooks {
	h, err := e.hooksFor(parentID)
	if h == nil || err != nil {
		return nil
	}
	return toolHooksOnly{h}
}
