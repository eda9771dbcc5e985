package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

// bridge answers the agent's permission requests and questions through the UI:
// the agent's goroutine sends a message to the UI loop and waits for the reply.
type bridge struct{ send func(tea.Msg) }

type approvalMsg struct {
	call  agent.ToolEvent
	reply chan agent.Decision
}

type questionMsg struct {
	questions []builtin.Question
	reply     chan questionReply
}

type questionReply struct {
	answers  []builtin.Answer
	declined bool
}

// Approve implements agent.Approver.
func (b *bridge) Approve(ctx context.Context, call agent.ToolEvent) (agent.Decision, error) {
	reply := make(chan agent.Decision, 1) // buffered: a dialog answered after a cancel never blocks
	b.send(approvalMsg{call: call, reply: reply})
	select {
	case d := <-reply:
		return d, nil
	case <-ctx.Done():
		return agent.Decision{}, ctx.Err()
	}
}

// Ask implements builtin.Asker.
func (b *bridge) Ask(ctx context.Context, qs []builtin.Question) ([]builtin.Answer, error) {
	reply := make(chan questionReply, 1)
	b.send(questionMsg{questions: qs, reply: reply})
	select {
	case r := <-reply:
		if r.declined {
			return nil, builtin.ErrDeclined
		}
		return r.answers, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
