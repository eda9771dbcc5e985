// Package agent is the loop that turns a prompt into model calls and tool calls: it
// streams one kind of Event to whichever face drives it (terminal UI, headless, ACP,
// serve), asks the face to approve calls, runs middlewares before every model call, and
// keeps a history the provider will always accept, even after a cancel or a crash.
package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/permission"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// Model is what the loop needs to know about the model it drives.
type Model struct {
	// Name is the name users know; WireName the one the server knows.
	Name     string
	WireName string
	// ContextWindow in tokens; zero means unknown (no warnings, no auto-compaction).
	ContextWindow int
	// Prices per million tokens.
	InputPrice  float64
	OutputPrice float64
	Temperature *float64
}

// Cost prices u with the model's prices.
func (m Model) Cost(u llm.Usage) float64 {
	return (float64(u.InputTokens)*m.InputPrice + float64(u.OutputTokens)*m.OutputPrice) / 1e6
}

// Decision is a person's answer to a permission request.
type Decision struct {
	Allow bool
	// ForSession approves every later call to the same tool in this session.
	ForSession bool
	// Feedback, on a denial, tells the model what to do instead.
	Feedback string
}

// Approver asks whoever drives the agent to approve a tool call. It blocks until an
// answer or ctx ends. A face that cannot ask anyone passes no Approver at all.
type Approver interface {
	Approve(ctx context.Context, call ToolEvent) (Decision, error)
}

// SessionLog receives every message as it is added to the history, and the totals
// after every model call. session.Log meets it through a small adapter in app.
type SessionLog interface {
	Append(msgs ...llm.Message) error
	SaveStats(Stats) error
}

// Options configure an Agent.
type Options struct {
	Provider     llm.Provider
	Model        Model
	Tools        *tool.Registry
	Policy       *permission.Policy
	Approver     Approver
	Middlewares  []Middleware
	SystemPrompt string
	// History is a resumed session's messages (already repaired).
	History []llm.Message
	// Stats are a resumed session's totals.
	Stats     Stats
	Log       SessionLog
	SessionID string
	// CompactKeepTurns is how many of the latest exchanges compaction keeps verbatim
	// (at least one).
	CompactKeepTurns int
	// Hooks, when set, run around tool calls and at the end of each run.
	Hooks Hooks
	// Confine chooses the sandbox mode of the commands an allowed call starts:
	// asked says a person approved it. Nil leaves the context's mode (read-only by
	// default) to the tools.
	Confine func(info tool.Info, args json.RawMessage, asked bool) sandbox.Mode
	// Withheld says why a tool that exists is not in Tools (the profile or the
	// configuration took it away), so the model reads that rather than "unknown tool".
	Withheld map[string]string
}

// Agent is one conversation. Run may be called again for the next prompt; one run at
// a time.
type Agent struct {
	opts Options

	runMu   sync.Mutex
	mu      sync.Mutex // guards history and stats
	history []llm.Message
	stats   Stats
	logErr  error // first failure to write the session log
	// silence tunes the notices of a silent model server; zero takes the defaults.
	silence silenceTimes
	// answeredBy is the model of the run's last answer (Result.Model).
	answeredBy string
}

// ErrBusy is returned when Run is called while a run is in progress.
var ErrBusy = errors.New("the agent is already running a prompt")

// New builds an Agent. Provider and Tools are required.
func New(opts Options) (*Agent, error) {
	if opts.Provider == nil {
		return nil, errors.New("agent: no model provider")
	}
	if opts.Tools == nil {
		opts.Tools, _ = tool.NewRegistry()
	}
	if opts.Policy == nil {
		opts.Policy = &permission.Policy{}
	}
	a := &Agent{opts: opts, stats: opts.Stats}
	a.history = append(a.history, opts.History...)
	if a.stats.ContextTokens == 0 {
		a.stats.ContextTokens = contextTokens(llm.PromptView(a.history))
	}
	return a, nil
}

// contextTokens tells how full the window of a resumed conversation is: the last
// answer's reported usage when no summary came after it, an estimate otherwise.
func contextTokens(view []llm.Message) int64 {
	for i := len(view) - 1; i >= 0; i-- {
		if view[i].Summary {
			break
		}
		if u := view[i].Usage; view[i].Role == llm.RoleAssistant && u != nil && u.Total() > 0 {
			return u.Total() + estimateTokens(view[i+1:])
		}
	}
	return estimateTokens(view)
}

// History returns a copy of the full history (compacted messages included).
func (a *Agent) History() []llm.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]llm.Message(nil), a.history...)
}

// Stats returns the running totals.
func (a *Agent) Stats() Stats {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stats
}

// AddUsage counts usage spent on the agent's behalf elsewhere (a sub-agent's calls).
func (a *Agent) AddUsage(u llm.Usage, cost float64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stats.Usage.Add(u)
	a.stats.Cost += cost
}

// Model returns the model the agent drives.
func (a *Agent) Model() Model { return a.opts.Model }

// Result is how a run ended.
type Result struct {
	// Text is the last assistant text of the run.
	Text  string
	Stop  StopReason
	Err   error
	Stats Stats
	// Model is the wire name of the model that answered the run's last call: the
	// fallback's when the rate limiter moved the call; empty when none answered.
	Model string
}

// Run sends prompt and drives the model until it stops asking for tools, a middleware
// stops the run, ctx is cancelled, or an error ends it. emit receives every event,
// never concurrently, and finally one EventTurnEnd.
func (a *Agent) Run(ctx context.Context, prompt string, emit func(Event)) Result {
	if !a.runMu.TryLock() {
		return Result{Stop: StopError, Err: ErrBusy}
	}
	defer a.runMu.Unlock()
	emit = serialize(emit)

	a.mu.Lock()
	a.stats.Turns = 0
	a.mu.Unlock()
	a.add(llm.Message{Role: llm.RoleUser, Content: prompt})

	a.mu.Lock()
	a.answeredBy = ""
	a.mu.Unlock()
	res := a.loop(ctx, emit)
	res.Stats = a.Stats()
	a.mu.Lock()
	res.Model = a.answeredBy
	a.mu.Unlock()
	if a.opts.Log != nil {
		// Totals must reach the disk even when the run was cancelled.
		err := a.opts.Log.SaveStats(res.Stats)
		a.mu.Lock()
		err = errors.Join(a.logErr, err)
		a.logErr = nil
		a.mu.Unlock()
		if err != nil {
			emit(Event{Kind: EventError, Text: fmt.Sprintf("save session: %v", err)})
		}
	}
	if a.opts.Hooks != nil {
		emitNotices(emit, a.opts.Hooks.AfterRun(ctx, res))
	}
	ev := Event{Kind: EventTurnEnd, Stop: res.Stop, Text: res.Text, Stats: &res.Stats}
	if res.Err != nil {
		ev.Text = res.Err.Error()
	}
	emit(ev)
	return res
}

func (a *Agent) loop(ctx context.Context, emit func(Event)) Result {
	var lastText string
	for turn := 1; ; turn++ {
		act := a.beforeTurn(ctx, turn, emit)
		if act.Stop != "" {
			if act.Message != "" {
				emit(Event{Kind: EventNotice, Text: act.Message})
			}
			return Result{Text: lastText, Stop: act.Stop}
		}
		if ctx.Err() != nil {
			return Result{Text: lastText, Stop: StopCancelled}
		}
		a.mu.Lock()
		a.stats.Turns = turn
		a.mu.Unlock()

		resp, err := a.callModel(ctx, emit)
		if err != nil {
			if ctx.Err() != nil {
				return Result{Text: lastText, Stop: StopCancelled}
			}
			emit(Event{Kind: EventError, Text: err.Error()})
			return Result{Text: lastText, Stop: StopError, Err: err}
		}
		if resp.Message.Content != "" {
			lastText = resp.Message.Content
		}
		if len(resp.Message.ToolCalls) == 0 {
			if ctx.Err() == nil && a.continueAfter(ctx, resp.Message, emit) {
				continue
			}
			return Result{Text: lastText, Stop: StopEndTurn}
		}
		a.runTools(ctx, resp.Message.ToolCalls, emit)
		if ctx.Err() != nil {
			return Result{Text: lastText, Stop: StopCancelled}
		}
	}
}

// callModel sends the prompt view and records the answer. On cancellation the text
// streamed so far is kept as an assistant message without tool calls, which every
// provider accepts.
func (a *Agent) callModel(ctx context.Context, emit func(Event)) (*llm.Response, error) {
	req := llm.Request{
		Model:       a.opts.Model.WireName,
		Messages:    a.promptMessages(),
		Tools:       a.toolSpecs(),
		Temperature: a.opts.Model.Temperature,
		SessionID:   a.opts.SessionID,
	}
	var partial []byte
	silence := watchSilence(cmp.Or(a.opts.Model.Name, req.Model), a.silence, emit)
	resp, err := a.opts.Provider.Stream(ctx, req, func(ev llm.StreamEvent) {
		silence.seen(ev.Wait)
		switch ev.Kind {
		case llm.EventTextDelta:
			partial = append(partial, ev.Text...)
			emit(Event{Kind: EventTextDelta, Text: ev.Text})
		case llm.EventReasoningDelta:
			emit(Event{Kind: EventReasoningDelta, Text: ev.Text})
		case llm.EventRetry:
			partial = partial[:0]
			msg := "retrying the model call"
			if ev.Err != nil {
				msg = fmt.Sprintf("retrying the model call after: %v", ev.Err)
			}
			emit(Event{Kind: EventRetry, Text: msg})
		case llm.EventWait:
			emit(Event{Kind: EventRateLimitWait, Text: ev.Text, WaitSeconds: ev.Wait.Seconds()})
		case llm.EventModelSwitch:
			// The rate limiter moved this call to a fallback model or back: every
			// face already shows notices.
			emit(Event{Kind: EventNotice, Text: ev.Text})
		}
	})
	silence.stop()
	if err != nil {
		if ctx.Err() != nil && len(partial) > 0 {
			a.add(llm.Message{Role: llm.RoleAssistant, Content: string(partial), Model: req.Model})
		}
		return nil, err
	}
	msg := resp.Message
	msg.Role = llm.RoleAssistant
	if msg.Model == "" {
		msg.Model = req.Model
	}
	usage := resp.Usage
	msg.Usage = &usage
	resp.Message = msg
	a.mu.Lock()
	a.stats.Usage.Add(usage)
	a.stats.Cost += a.opts.Model.Cost(usage)
	a.stats.ContextTokens = usage.Total()
	stats := a.stats
	a.answeredBy = msg.Model
	a.mu.Unlock()
	a.add(msg)
	emit(Event{Kind: EventUsage, Usage: &usage, Stats: &stats})
	return resp, nil
}

func (a *Agent) promptMessages() []llm.Message {
	a.mu.Lock()
	view := llm.PromptView(a.history)
	a.mu.Unlock()
	msgs := make([]llm.Message, 0, len(view)+1)
	if a.opts.SystemPrompt != "" {
		msgs = append(msgs, llm.Message{Role: llm.RoleSystem, Content: a.opts.SystemPrompt})
	}
	return append(msgs, view...)
}

func (a *Agent) toolSpecs() []llm.ToolSpec {
	tools := a.opts.Tools.All()
	specs := make([]llm.ToolSpec, 0, len(tools))
	for _, t := range tools {
		specs = append(specs, t.Info().Spec())
	}
	return specs
}

// add appends to the history and the session log. A log failure does not stop the
// conversation, but it is not silent either: Run reports it as an error event.
func (a *Agent) add(msgs ...llm.Message) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.history = append(a.history, msgs...)
	if a.opts.Log != nil {
		if err := a.opts.Log.Append(msgs...); err != nil && a.logErr == nil {
			a.logErr = err
		}
	}
}

// serialize makes emit safe to call from parallel tool goroutines.
func serialize(emit func(Event)) func(Event) {
	if emit == nil {
		return func(Event) {}
	}
	var mu sync.Mutex
	return func(ev Event) {
		mu.Lock()
		defer mu.Unlock()
		emit(ev)
	}
}
