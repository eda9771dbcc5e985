package native

import (
	"encoding/json"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/serve/adapter"
	"github.com/etalab-ia/albert-code/internal/serve/supervisor"
)

// costCurrency is the currency of the shipped price tables (docs/headless.md).
const costCurrency = "EUR"

// translator turns the agent's events into the serve layer's, as they arrive, and
// keeps them as native records for eventMode full, under the same byte cap as a CLI
// agent's stdout.
type translator struct {
	emit    func(adapter.Event)
	errs    *providerErrors
	keep    bool
	used    int
	records []adapter.Record
	cut     int
	// lastCost is the session's cost total at the previous usage event.
	lastCost float64
}

func newTranslator(emit func(adapter.Event), errs *providerErrors, keep bool, startCost float64) *translator {
	return &translator{emit: emit, errs: errs, keep: keep, lastCost: startCost}
}

func (t *translator) event(ev agent.Event) {
	t.record(ev)
	switch ev.Kind {
	case agent.EventTextDelta:
		t.emit(adapter.Event{Kind: adapter.EventDelta, Text: ev.Text})
	case agent.EventReasoningDelta:
		t.emit(adapter.Event{Kind: adapter.EventReasoning, Text: ev.Text})
	case agent.EventToolCallStart, agent.EventToolCallResult:
		kind := adapter.EventToolCall
		use := &adapter.ToolUse{ID: ev.Tool.ID, Name: ev.Tool.Name, Arguments: ev.Tool.Arguments}
		if ev.Kind == agent.EventToolCallResult {
			kind = adapter.EventToolResult
			use.Output, use.IsError = ev.Tool.Output, ev.Tool.IsError
		}
		t.emit(adapter.Event{Kind: kind, Tool: use})
	case agent.EventUsage:
		t.emit(adapter.Event{Kind: adapter.EventUsage, Usage: t.usage(ev)})
	case agent.EventError:
		t.emit(adapter.Event{Kind: adapter.EventError, Text: ev.Text, ErrorKind: t.errs.kindFor(ev.Text)})
	}
}

// usage is one model call's usage, priced by the difference of the session's cost
// totals: the agent prices calls with the model's table.
func (t *translator) usage(ev agent.Event) *adapter.Usage {
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
	t.records = append(t.records, adapter.Record{Type: string(ev.Kind), Event: data})
}

func fromLLM(u llm.Usage) adapter.Usage {
	return adapter.Usage{
		InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CachedInputTokens, ReasoningTokens: u.ReasoningTokens,
	}
}

// usageBetween is what a run spent: the session's totals after it, less those it
// resumed with (sub-agents' calls included).
func usageBetween(before, after agent.Stats) adapter.Usage {
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
