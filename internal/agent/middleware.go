package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// TurnInfo is what a middleware sees before a model call.
type TurnInfo struct {
	// Turn is the 1-based number of the model call about to be made in this run.
	Turn  int
	Stats Stats
	// ContextWindow of the model in tokens; zero when unknown.
	ContextWindow int
	// View is the prompt as it stands (read only).
	View []llm.Message
}

// Action is a middleware's verdict. The zero value lets the turn go on.
type Action struct {
	// Stop ends the run with this reason; Message says why, to the user.
	Stop    StopReason
	Message string
	// Inject adds a reminder for the model (a synthetic user message) before the call.
	Inject string
	// Notice tells the user something without touching the prompt.
	Notice string
	// Compact asks for the history to be summarised before the call.
	Compact bool
}

// Middleware runs before every model call. Middlewares are small, independent types
// composed in a list, so profiles can turn guards on and off one by one.
type Middleware interface {
	BeforeTurn(ctx context.Context, t TurnInfo) Action
}

// beforeTurn runs the middlewares in order. The first Stop wins; injected reminders
// from several middlewares are joined into one message; compaction runs first so the
// other verdicts see the compacted history next time.
func (a *Agent) beforeTurn(ctx context.Context, turn int, emit func(Event)) Action {
	info := TurnInfo{Turn: turn, Stats: a.Stats(), ContextWindow: a.opts.Model.ContextWindow}
	a.mu.Lock()
	info.View = llm.PromptView(a.history)
	a.mu.Unlock()

	var injects []string
	compact := false
	for _, m := range a.opts.Middlewares {
		act := m.BeforeTurn(ctx, info)
		if act.Stop != "" {
			return act
		}
		if act.Notice != "" {
			emit(Event{Kind: EventNotice, Text: act.Notice})
		}
		if act.Inject != "" {
			injects = append(injects, act.Inject)
		}
		compact = compact || act.Compact
	}
	if compact {
		if err := a.Compact(ctx, "", emit); err != nil && ctx.Err() == nil {
			emit(Event{Kind: EventNotice, Text: fmt.Sprintf("auto-compaction failed, going on with the full history: %v", err)})
		}
	}
	if len(injects) > 0 {
		a.add(llm.Message{Role: llm.RoleUser, Content: strings.Join(injects, "\n\n"), Synthetic: true})
	}
	return Action{}
}

// TurnLimit stops a run before model call Max+1.
type TurnLimit struct{ Max int }

func (m TurnLimit) BeforeTurn(_ context.Context, t TurnInfo) Action {
	if m.Max > 0 && t.Turn > m.Max {
		return Action{Stop: StopMaxTurns, Message: fmt.Sprintf("turn limit of %d reached", m.Max)}
	}
	return Action{}
}

// PriceCap stops a run once the session has cost more than Max.
type PriceCap struct{ Max float64 }

func (m PriceCap) BeforeTurn(_ context.Context, t TurnInfo) Action {
	if m.Max > 0 && t.Stats.Cost >= m.Max {
		return Action{Stop: StopMaxPrice, Message: fmt.Sprintf("price limit reached: %.4f spent, limit %.4f", t.Stats.Cost, m.Max)}
	}
	return Action{}
}

// ContextWarning tells the user, once, when the context window is Fraction full.
type ContextWarning struct {
	Fraction float64
	warned   bool
}

func (m *ContextWarning) BeforeTurn(_ context.Context, t TurnInfo) Action {
	if m.warned || t.ContextWindow <= 0 || m.Fraction <= 0 {
		return Action{}
	}
	used := float64(t.Stats.ContextTokens) / float64(t.ContextWindow)
	if used < m.Fraction {
		return Action{}
	}
	m.warned = true
	return Action{Notice: fmt.Sprintf("context window %.0f%% full (%d of %d tokens); /compact summarises older turns",
		used*100, t.Stats.ContextTokens, t.ContextWindow)}
}

// AutoCompact asks for compaction when the context window is Fraction full.
type AutoCompact struct{ Fraction float64 }

func (m AutoCompact) BeforeTurn(_ context.Context, t TurnInfo) Action {
	if t.ContextWindow <= 0 || m.Fraction <= 0 {
		return Action{}
	}
	if float64(t.Stats.ContextTokens) >= m.Fraction*float64(t.ContextWindow) {
		return Action{Compact: true}
	}
	return Action{}
}

// ReadOnlyGuard reminds the model, on the first call of a session, that it may only
// read and must plan first (the plan profile). Its tools are already read-only; the
// reminder stops it from trying to edit through bash tricks or asking to.
type ReadOnlyGuard struct{ reminded bool }

// readOnlyReminder is worded for the model, in the style of the system prompt.
const readOnlyReminder = `<reminder>You are in plan mode: read-only. Do not change any file or run commands that change state. Explore with the read-only tools, then answer with a numbered plan the user can approve.</reminder>`

func (m *ReadOnlyGuard) BeforeTurn(_ context.Context, t TurnInfo) Action {
	if m.reminded {
		return Action{}
	}
	m.reminded = true
	return Action{Inject: readOnlyReminder}
}

// Todo is one entry of the agent's todo list as the focus reminder sees it.
type Todo struct {
	Content string
	Status  string // pending, in_progress, completed, cancelled
}

// TodoFocus reminds the model of its unfinished todo list, so long plans survive long
// tool sequences. Unlike the original, which added a reminder before every call, it
// speaks at most every Every calls and only while todos are open.
type TodoFocus struct {
	Items func() []Todo
	Every int
	last  int
	seen  string
}

func (m *TodoFocus) BeforeTurn(_ context.Context, t TurnInfo) Action {
	if m.Items == nil {
		return Action{}
	}
	items := m.Items()
	var b strings.Builder
	open := 0
	for _, it := range items {
		mark := map[string]string{"completed": "[x]", "in_progress": "[>]", "cancelled": "[-]"}[it.Status]
		if mark == "" {
			mark = "[ ]"
		}
		if it.Status == "pending" || it.Status == "in_progress" {
			open++
		}
		fmt.Fprintf(&b, "%s %s\n", mark, it.Content)
	}
	list := b.String()
	every := max(m.Every, 1)
	// A changed list means the model is tracking it: no reminder needed now.
	if open == 0 || list != m.seen {
		m.seen, m.last = list, t.Turn
		return Action{}
	}
	if t.Turn-m.last < every {
		return Action{}
	}
	m.last = t.Turn
	return Action{Inject: "<reminder>Your todo list still has open items. Continue from the first unchecked one.\n" + list + "</reminder>"}
}
