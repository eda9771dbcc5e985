package chat

import (
	"context"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/mention"
	"github.com/etalab-ia/albert-code/internal/skill"
)

// begin marks s busy with what and returns the work's context, the agent to run it
// on and the function that ends it. A second caller gets an error wrapping
// agent.ErrBusy at once.
func (s *Session) begin(ctx context.Context, what string) (context.Context, *agent.Agent, func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil, nil, ErrClosed
	}
	if s.busy {
		return nil, nil, nil, errBusy(what)
	}
	ctx, cancel := context.WithCancel(ctx)
	idle := make(chan struct{})
	s.busy, s.cancel, s.idle = true, cancel, idle
	end := func() {
		cancel()
		s.mu.Lock()
		s.busy, s.cancel, s.idle = false, nil, nil
		s.mu.Unlock()
		close(idle)
	}
	return ctx, s.run.Agent, end, nil
}

// Prompt sends text to the agent and streams its events to emit until the turn ends;
// the files text names with @path go in with it (internal/mention). Only one Prompt
// runs at a time: another one returns at once with a Result whose Err wraps
// agent.ErrBusy, and emits nothing.
func (s *Session) Prompt(ctx context.Context, text string, emit func(agent.Event)) agent.Result {
	ctx, a, end, err := s.begin(ctx, "send a prompt while another one runs")
	if err != nil {
		return agent.Result{Stop: agent.StopError, Err: err}
	}
	defer end()
	return a.Run(ctx, mention.Expand(text, s.env.WorkDir), emit)
}

// Compact summarises the older part of the conversation; instructions, when given,
// steer the summary (/compact <instructions>). Cancel stops it.
func (s *Session) Compact(ctx context.Context, instructions string, emit func(agent.Event)) error {
	ctx, a, end, err := s.begin(ctx, "compact while a prompt runs")
	if err != nil {
		return err
	}
	defer end()
	return a.Compact(ctx, instructions, emit)
}

// Cancel stops the running prompt or compaction; the prompt then ends with
// agent.StopCancelled. It does nothing when nothing runs.
func (s *Session) Cancel() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

// Busy reports whether a prompt, a compaction or a switch is running.
func (s *Session) Busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.busy
}

// Skills are the skills the user may run as slash commands (/name).
func (s *Session) Skills() []skill.Skill {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.run.Commands()
}

// RunSkill runs the skill called name as the user's prompt: its instructions,
// then args as the request, with its allowed-tools pre-approved as when the
// model loads it (Claude Code's /skill-name). An unknown name is an error.
func (s *Session) RunSkill(ctx context.Context, name, args string, emit func(agent.Event)) agent.Result {
	s.mu.Lock()
	sk, ok := s.run.UseSkill(name)
	s.mu.Unlock()
	if !ok {
		return agent.Result{Stop: agent.StopError, Err: fmt.Errorf("no skill %q: /skills lists them", name)}
	}
	text := fmt.Sprintf("Use the skill %q (its files are in %s):\n\n%s", sk.Name, sk.Dir, sk.Body)
	if args = strings.TrimSpace(args); args != "" {
		text += "\n\nRequest: " + args
	}
	return s.Prompt(ctx, text, emit)
}
