package builtin

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/tool"
)

//go:embed task.md
var taskDescription string

// SubAgentRequest is one delegated task.
type SubAgentRequest struct {
	// Description is the short title the faces show.
	Description string
	// Prompt is the full instruction for the sub-agent, which sees nothing else of the
	// parent conversation.
	Prompt string
	// Agent names the sub-agent profile; empty means the runner's default.
	Agent string
	// Progress reports the sub-agent's activity to the face (never nil).
	Progress func(string)
}

// SubAgentRunner runs a sub-agent to completion and returns its final answer. The
// agent package implements it: the sub-agent gets its own context window and a
// restricted tool set. An error it returns is shown to the model, which can retry
// or do the work itself; a cancelled ctx stops the sub-agent.
type SubAgentRunner interface {
	RunSubAgent(ctx context.Context, req SubAgentRequest) (string, error)
}

// SubAgentFunc adapts a function to SubAgentRunner.
type SubAgentFunc func(ctx context.Context, req SubAgentRequest) (string, error)

// RunSubAgent calls f.
func (f SubAgentFunc) RunSubAgent(ctx context.Context, req SubAgentRequest) (string, error) {
	return f(ctx, req)
}

// TaskParams are the arguments of the task tool.
type TaskParams struct {
	Description string `json:"description" jsonschema:"a three to six word title for the task"`
	Prompt      string `json:"prompt" jsonschema:"the complete, self-contained instruction for the sub-agent"`
	Agent       string `json:"agent,omitempty" jsonschema:"which sub-agent profile to use (default: explore)"`
}

// Task delegates a self-contained job to a sub-agent through runner. It is not
// ReadOnly: which tools the sub-agent has is the runner's business, so the plan
// profile cannot assume the sub-agent changes nothing.
func Task(runner SubAgentRunner) tool.Tool {
	return tool.New(tool.Def[TaskParams]{
		Info: tool.Info{Name: "task", Description: taskDescription, Kind: tool.KindOther},
		Run: func(ctx context.Context, call tool.Call, p TaskParams) (tool.Result, error) {
			if runner == nil {
				return tool.Errorf("sub-agents are not available in this mode; do the work yourself"), nil
			}
			if strings.TrimSpace(p.Prompt) == "" {
				return tool.Errorf("prompt is empty; say what the sub-agent must do and what to report"), nil
			}
			out, err := runner.RunSubAgent(ctx, SubAgentRequest{
				Description: p.Description, Prompt: p.Prompt, Agent: p.Agent, Progress: call.Progress,
			})
			if err != nil {
				if ctx.Err() != nil {
					return tool.Result{}, fmt.Errorf("sub-agent %q: %w", p.Description, err)
				}
				return tool.Errorf("the sub-agent failed: %v", err), nil
			}
			if strings.TrimSpace(out) == "" {
				out = "(the sub-agent finished without a final answer)"
			}
			return tool.Text(out), nil
		},
	})
}
