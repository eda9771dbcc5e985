// Package hooks runs the user's [hooks] commands around tool calls and at the end of a
// turn: each gets a JSON description of the event on stdin and may answer on stdout
// with a decision (allow, deny with a reason, or new arguments). A hook that fails or
// times out is reported and, unless it is set to fail closed, lets the call go on.
package hooks

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// Runner runs the hooks of one session.
type Runner struct {
	hooks   []hook
	workDir string
	// SessionID, when set, names the session in every event.
	SessionID func() string
	// Sandbox confines hook commands as approved commands (workspace-write): a
	// project's hooks come from whoever wrote the repository. Nil still scrubs
	// their environment of secrets.
	Sandbox *sandbox.Sandbox
}

type hook struct {
	config.Hook
	tools []tool.NamePattern
}

// New prepares hooks to run in workDir. It returns nil when there are none, so
// callers can skip the work.
func New(hooks []config.Hook, workDir string) (*Runner, error) {
	if len(hooks) == 0 {
		return nil, nil
	}
	r := &Runner{workDir: workDir}
	for _, h := range hooks {
		ps, err := tool.ParseNamePatterns(h.Tools)
		if err != nil {
			return nil, fmt.Errorf("hook %q (%s): %w", h.Command, h.Source, err)
		}
		r.hooks = append(r.hooks, hook{Hook: h, tools: ps})
	}
	return r, nil
}

// Call is the tool call a hook is told about.
type Call struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Result is the outcome of a call, for after_tool hooks.
type Result struct {
	Output  string `json:"output"`
	IsError bool   `json:"is_error"`
}

// Turn is how a turn ended, for after_turn hooks.
type Turn struct {
	StopReason string `json:"stop_reason"`
	// Text is the agent's last answer.
	Text string `json:"text"`
}

// Verdict is what the hooks decided about a call.
type Verdict struct {
	// Deny refuses the call (before_tool) or turns its result into an error
	// (after_tool); Reason says why, to the model.
	Deny   bool
	Reason string
	// Arguments, when not nil, replace the call's arguments (before_tool).
	Arguments json.RawMessage
	// Warnings report hooks that failed, for the user.
	Warnings []string
}

// event is what a hook reads on stdin.
type event struct {
	Event     config.HookEvent `json:"event"`
	Cwd       string           `json:"cwd"`
	SessionID string           `json:"session_id,omitempty"`
	Tool      *Call            `json:"tool,omitempty"`
	Result    *Result          `json:"result,omitempty"`
	Turn      *Turn            `json:"turn,omitempty"`
}

// BeforeTool runs the before_tool hooks that match the call, in order. Each sees the
// arguments as the previous one left them; the first denial stops the others.
func (r *Runner) BeforeTool(ctx context.Context, call Call) Verdict {
	var v Verdict
	for _, h := range r.matching(config.HookBeforeTool, call.Name) {
		c := call
		if v.Arguments != nil {
			c.Arguments = v.Arguments
		}
		d, err := r.run(ctx, h, r.event(config.HookBeforeTool, &c, nil, nil))
		if err != nil {
			v.Warnings = append(v.Warnings, err.Error())
			if h.FailClosed {
				v.Deny, v.Reason = true, fmt.Sprintf("a before_tool hook that must succeed failed (%v)", err)
				return v
			}
			continue
		}
		if d.deny {
			v.Deny, v.Reason = true, d.reason
			return v
		}
		if d.arguments != nil {
			v.Arguments = d.arguments
		}
	}
	return v
}

// AfterTool runs the after_tool hooks that match the call. A denial turns the
// result into an error whose text carries the reason (a check the change failed).
func (r *Runner) AfterTool(ctx context.Context, call Call, res Result) Verdict {
	var v Verdict
	for _, h := range r.matching(config.HookAfterTool, call.Name) {
		d, err := r.run(ctx, h, r.event(config.HookAfterTool, &call, &res, nil))
		if err != nil {
			v.Warnings = append(v.Warnings, err.Error())
			continue
		}
		if d.deny {
			v.Deny, v.Reason = true, d.reason
			return v
		}
	}
	return v
}

// AfterTurn runs the after_turn hooks and returns the failures to report.
func (r *Runner) AfterTurn(ctx context.Context, turn Turn) []string {
	var warnings []string
	for _, h := range r.matching(config.HookAfterTurn, "") {
		if _, err := r.run(ctx, h, r.event(config.HookAfterTurn, nil, nil, &turn)); err != nil {
			warnings = append(warnings, err.Error())
		}
	}
	return warnings
}

func (r *Runner) matching(ev config.HookEvent, toolName string) []hook {
	if r == nil {
		return nil
	}
	var out []hook
	for _, h := range r.hooks {
		if h.Event == ev && (len(h.tools) == 0 || tool.MatchAny(h.tools, toolName)) {
			out = append(out, h)
		}
	}
	return out
}

func (r *Runner) event(ev config.HookEvent, call *Call, res *Result, turn *Turn) event {
	e := event{Event: ev, Cwd: r.workDir, Tool: call, Result: res, Turn: turn}
	if r.SessionID != nil {
		e.SessionID = r.SessionID()
	}
	return e
}
