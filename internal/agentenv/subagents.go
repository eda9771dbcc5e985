package agentenv

import (
	"context"
	"fmt"
	"time"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/profile"
	"github.com/etalab-ia/albert-code/internal/prompt"
	"github.com/etalab-ia/albert-code/internal/session"
	"github.com/etalab-ia/albert-code/internal/tool"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

// subAgents runs the task tool's sub-agents: a fresh history, the sub-agent profile's
// tools (never task itself, so there is no recursion), the parent's provider and
// permission rules, and no approver: a sub-agent that needs approval is refused and
// says so. Usage rolls up into the parent.
type subAgents struct {
	env      *Env
	provider llm.Provider
	model    agent.Model
	parent   func() *agent.Agent
	// store and parentID, when set, keep each sub-agent's trace as a child session
	// (hidden from `sessions list`, shown with --all by its parent_id).
	store    *session.Store
	parentID string
}

func (s *subAgents) RunSubAgent(ctx context.Context, req builtin.SubAgentRequest) (string, error) {
	name := req.Agent
	if name == "" {
		name = profile.Explore
	}
	cat, err := profile.Load(profile.Options{Home: s.env.Config.Home, WorkDir: s.env.WorkDir})
	if err != nil {
		return "", err
	}
	prof, err := cat.Get(name)
	if err != nil {
		return "", err
	}
	if !prof.Subagent {
		return "", fmt.Errorf("profile %q is not a sub-agent profile", name)
	}
	reg, err := s.env.Tools(prof, builtin.Deps{})
	if err != nil {
		return "", err
	}
	reg = reg.Filter(func(i tool.Info) bool { return i.Name != "task" })
	system, _ := prompt.Build(prompt.Input{Sandbox: s.env.sandboxPrompt(), WorkDir: s.env.WorkDir, Trusted: s.env.Trusted, Model: s.model.Name,
		Profile: prof.Name, ProfileAddition: prof.SystemPrompt, Now: time.Now()})
	opts := agent.Options{
		Provider: s.provider, Model: s.model, Tools: reg, Policy: s.env.Policy(prof),
		SystemPrompt: system, Middlewares: []agent.Middleware{agent.TurnLimit{Max: subAgentTurns}},
		Hooks:   s.env.subAgentHooks(s.parentID),
		Confine: confine(prof),
	}
	if s.store != nil {
		sl, err := s.store.Create(session.Meta{Cwd: s.env.WorkDir, Model: s.model.Name, Profile: prof.Name, ParentID: s.parentID})
		if err != nil {
			return "", err
		}
		defer sl.Close()
		opts.Log, opts.SessionID = sessionLog{log: sl}, sl.ID()
	}
	child, err := agent.New(opts)
	if err != nil {
		return "", err
	}
	res := child.Run(ctx, req.Prompt, func(ev agent.Event) {
		if ev.Kind == agent.EventToolCallStart && req.Progress != nil {
			req.Progress(fmt.Sprintf("%s %s\n", ev.Tool.Name, abbreviateArgs(string(ev.Tool.Arguments))))
		}
	})
	if p := s.parent(); p != nil {
		p.AddUsage(res.Stats.Usage, res.Stats.Cost)
	}
	if res.Err != nil {
		return "", res.Err
	}
	if res.Stop == agent.StopMaxTurns {
		return res.Text + fmt.Sprintf("\n\n[the sub-agent stopped after %d model calls]", subAgentTurns), nil
	}
	if res.Stop == agent.StopCancelled {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		return "", context.Canceled
	}
	return res.Text, nil
}

// subAgentTurns bounds a sub-agent so a confused one cannot burn the parent's budget
// (a judgement call: enough for a focused exploration).
const subAgentTurns = 30

func abbreviateArgs(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:77]) + "..."
	}
	return s
}
