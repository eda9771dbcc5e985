package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// Continuer is a middleware that may send the model back to work when it ends its
// answer without asking for a tool. It returns the message to send, or "" to let the
// run end.
type Continuer interface {
	ContinueAfter(ctx context.Context, answer llm.Message) string
}

// AutoContinue sends the model back to work, at most Max times per prompt, when it
// stops while its todo list still has open items: models often end a long plan
// halfway with "I will now..." and wait for a person who is not there. The original
// did the same (at most 3 times per user input, never after an empty answer).
type AutoContinue struct {
	Items func() []Todo
	Max   int
	used  int
}

// BeforeTurn starts a new count at the first call of each prompt.
func (m *AutoContinue) BeforeTurn(_ context.Context, t TurnInfo) Action {
	if t.Turn == 1 {
		m.used = 0
	}
	return Action{}
}

func (m *AutoContinue) ContinueAfter(_ context.Context, answer llm.Message) string {
	if m.Items == nil || m.used >= m.Max || strings.TrimSpace(answer.Content) == "" {
		return ""
	}
	var open []string
	for _, it := range m.Items() {
		if it.Status == "pending" || it.Status == "in_progress" {
			open = append(open, "[ ] "+it.Content)
		}
	}
	if len(open) == 0 {
		return ""
	}
	m.used++
	return fmt.Sprintf("<continue>The plan is not finished yet: %d todo item(s) are still open. Continue with the next one without waiting for the user; "+
		"if an item cannot or should not be done, mark it cancelled with the todo tool and say why.\n%s\n</continue>",
		len(open), strings.Join(open, "\n"))
}

// continueAfter asks the Continuer middlewares whether the run goes on after an
// answer without tool calls; the first message wins. The message is added to the
// history (so the session log keeps it, as the original's did) and shown to the user.
func (a *Agent) continueAfter(ctx context.Context, answer llm.Message, emit func(Event)) bool {
	for _, m := range a.opts.Middlewares {
		c, ok := m.(Continuer)
		if !ok {
			continue
		}
		if msg := c.ContinueAfter(ctx, answer); msg != "" {
			a.add(llm.Message{Role: llm.RoleUser, Content: msg, Synthetic: true})
			emit(Event{Kind: EventNotice, Text: "auto-continue: the todo list still has open items, the model is asked to go on"})
			return true
		}
	}
	return false
}
