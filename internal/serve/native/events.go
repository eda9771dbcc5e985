package native

import (
	"encoding/json"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/supervisor"
)

// costCurrency is the currency of the shipped price tables (docs/headless.md).
const costCurrency = "EUR"

// translator turns the agent's events into the serve layer's, as they arrive, and
// keeps them as native records for eventMode full, under the same byte cap as a CLI
// agent's stdout.
type translator struct {
	emit    func(backend.Event)
	errs    *providerErrors
	keep    bool
	used    int
	records []backend.Record
	cut     int
	// lastCost is the session's cost total at the previous usage event.
	lastCost float64
}

func newTranslator(emit func(backend.Event), errs *providerErrors, keep bool, startCost float64) *translator {
	return &translator{emit: emit, errs: errs, keep: keep, lastCost: startCost}
}

func (t *translator) event(ev agent.Event) {
	t.record(ev)
	switch ev.Kind {
	case agent.EventTextDelta:
		t.emit(backend.Event{Kind: backend.EventDelta, Text: ev.Text})
	case agent.EventReasoningDelta:
		t.emit(backend.Event{Kind: backend.EventReasoning, Text: ev.Text})
	case agent.EventToolCallStart, agent.EventToolCallResult:
		kind := backend.EventToolCall
		use := &backend.ToolUse{ID: ev.Tool.ID, Name: ev.Tool.Name, Arguments: ev.Tool.Arguments}
		if ev.Kind == agent.EventToolCallResult {
			kind = backend.EventToolResult
			use.Output, use.IsError = ev.Tool.Output, ev.Tool.IsError
		}
		t.emit(backend.Event{Kind: kind, Tool: use})
	case agent.EventUsage:
		t.emit(backend.Event{Kind: backend.EventUsage, Usage: t.usage(ev)})
	case agent.EventError:
		t.emit(backend.Event{Kind: backend.EventError, Text: ev.Text, ErrorKind: t.errs.kindFor(ev.Text)})
	}
}

// usage is one model call's usage, priced by the difference of the session's cost
// totals: the agent prices calls with the model's table.
func (t *translator) usage(ev agent.Event) *backend.Usage {
	u := fromLLM(*ev.Usage)
	if ev.Stats != nil {
		u.Cost, t.lastCost = ev.Stats.Cost-t.lastCost, ev.Stats.Cost
	}
	if u.Cost > 0 {
		u.Currency = costCurrency
	}
	return &u
}

func (t *translator) record(ev agent.Event) {
	if !t.keep {
		return
	}
	data, err := json.Marshal(ev)
	if err != nil {
		return
	}
	if t.used+len(data) > supervisor.DefaultStdoutLimit {
		t.cut++
		return
	}
	t.used += len(data)
	t.records = append(t.records, backend.Record{Type: string(ev.Kind), Event: data})
}

func fromLLM(u llm.Usage) backend.Usage {
	return backend.Usage{
		InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CachedInputTokens, ReasoningTokens: u.ReasoningTokens,
	}
}

// usageBetween is what a run spent: the session's totals after it, less those it
// resumed with (sub-agents' calls included).
func usageBetween(before, after agent.Stats) backend.Usage {
	u := after.Usage
	u.InputTokens -= before.Usage.InputTokens
	u.OutputTokens -= before.Usage.OutputTokens
	u.CachedInputTokens -= before.Usage.CachedInputTokens
	u.ReasoningTokens -= before.Usage.ReasoningTokens
	out := fromLLM(u)
	if out.Cost = after.Cost - before.Cost; out.Cost > 0 {
		out.Currency = costCurrency
	}
	return out
}
