package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/permission"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// scripted is an in-process provider: each call returns the next response. The end to
// end tests in internal/app drive the same loop over HTTP through the fake server.
type scripted struct {
	mu       sync.Mutex
	turns    []func(ctx context.Context, emit func(llm.StreamEvent)) (*llm.Response, error)
	requests []llm.Request
}

func (s *scripted) Stream(ctx context.Context, req llm.Request, emit func(llm.StreamEvent)) (*llm.Response, error) {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	if len(s.turns) == 0 {
		s.mu.Unlock()
		return nil, errors.New("script exhausted")
	}
	next := s.turns[0]
	s.turns = s.turns[1:]
	s.mu.Unlock()
	return next(ctx, emit)
}

func say(text string, u llm.Usage) func(context.Context, func(llm.StreamEvent)) (*llm.Response, error) {
	return func(_ context.Context, emit func(llm.StreamEvent)) (*llm.Response, error) {
		emit(llm.StreamEvent{Kind: llm.EventTextDelta, Text: text})
		return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: text}, Usage: u}, nil
	}
}

func call(calls ...llm.ToolCall) func(context.Context, func(llm.StreamEvent)) (*llm.Response, error) {
	return func(context.Context, func(llm.StreamEvent)) (*llm.Response, error) {
		return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: calls}, Usage: llm.Usage{InputTokens: 10, OutputTokens: 5}}, nil
	}
}

type sleepParams struct {
	Millis int    `json:"millis"`
	Tag    string `json:"tag,omitempty"`
}

// sleeper is a tool that sleeps, records overlap between concurrent calls, and obeys ctx.
type sleeper struct {
	readOnly           bool
	name               string
	running, maxActive atomic.Int32
}

func (s *sleeper) tool() tool.Tool {
	return tool.New(tool.Def[sleepParams]{
		Info: tool.Info{Name: s.name, ReadOnly: s.readOnly},
		Run: func(ctx context.Context, _ tool.Call, p sleepParams) (tool.Result, error) {
			n := s.running.Add(1)
			defer s.running.Add(-1)
			for {
				m := s.maxActive.Load()
				if n <= m || s.maxActive.CompareAndSwap(m, n) {
					break
				}
			}
			select {
			case <-time.After(time.Duration(p.Millis) * time.Millisecond):
				return tool.Text("slept " + p.Tag), nil
			case <-ctx.Done():
				return tool.Text("interrupted " + p.Tag), nil
			}
		},
	})
}

type memLog struct {
	mu    sync.Mutex
	msgs  []llm.Message
	stats []Stats
}

func (l *memLog) Append(msgs ...llm.Message) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs = append(l.msgs, msgs...)
	return nil
}

func (l *memLog) SaveStats(s Stats) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stats = append(l.stats, s)
	return nil
}

func newAgent(t *testing.T, p llm.Provider, opts Options, tools ...tool.Tool) *Agent {
	t.Helper()
	reg, err := tool.NewRegistry(tools...)
	if err != nil {
		t.Fatal(err)
	}
	opts.Provider, opts.Tools = p, reg
	if opts.Policy == nil {
		opts.Policy = &permission.Policy{WorkDir: t.TempDir(), Trusted: true, AutoApprove: true}
	}
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func collect(events *[]Event) func(Event) {
	return func(e Event) { *events = append(*events, e) }
}

func args(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// checkHistory asserts the invariant providers need: every tool call is followed by
// exactly one result, and no result lacks its call.
func checkHistory(t *testing.T, h []llm.Message) {
	t.Helper()
	pending := map[string]bool{}
	for i, m := range h {
		switch m.Role {
		case llm.RoleAssistant, llm.RoleUser:
			if len(pending) > 0 {
				t.Fatalf("message %d (%s) arrives while calls %v have no result", i, m.Role, pending)
			}
			for _, c := range m.ToolCalls {
				pending[c.ID] = true
			}
		case llm.RoleTool:
			if !pending[m.ToolCallID] {
				t.Fatalf("message %d answers unknown call %q", i, m.ToolCallID)
			}
			delete(pending, m.ToolCallID)
		}
	}
	if len(pending) > 0 {
		t.Fatalf("calls %v never got a result", pending)
	}
}

func TestRunToolLoopAndUsage(t *testing.T) {
	t.Parallel()
	sl := &sleeper{name: "nap", readOnly: true}
	p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){
		call(llm.ToolCall{ID: "c1", Name: "nap", Arguments: args(sleepParams{Millis: 1, Tag: "a"})}),
		say("done", llm.Usage{InputTokens: 100, OutputTokens: 20}),
	}}
	log := &memLog{}
	a := newAgent(t, p, Options{Log: log, SystemPrompt: "sys", Model: Model{WireName: "m", InputPrice: 2, OutputPrice: 10}}, sl.tool())
	var events []Event
	res := a.Run(context.Background(), "hi", collect(&events))
	if res.Stop != StopEndTurn || res.Text != "done" || res.Err != nil {
		t.Fatalf("result = %+v", res)
	}
	if res.Stats.Turns != 2 || res.Stats.Usage.InputTokens != 110 || res.Stats.Usage.OutputTokens != 25 {
		t.Fatalf("stats = %+v", res.Stats)
	}
	if want := (110*2.0 + 25*10.0) / 1e6; math.Abs(res.Stats.Cost-want) > 1e-12 {
		t.Fatalf("cost = %v, want %v", res.Stats.Cost, want)
	}
	h := a.History()
	checkHistory(t, h)
	if len(h) != 4 || h[2].Content != "slept a" {
		t.Fatalf("history = %+v", h)
	}
	if len(log.msgs) != 4 || len(log.stats) != 1 {
		t.Fatalf("log got %d messages and %d stats", len(log.msgs), len(log.stats))
	}
	second := p.requests[1]
	if second.Messages[0].Role != llm.RoleSystem || len(second.Messages) != 4 || len(second.Tools) != 1 {
		t.Fatalf("second request = %+v", second)
	}
	kinds := map[EventKind]int{}
	for _, e := range events {
		kinds[e.Kind]++
	}
	if kinds[EventToolCallStart] != 1 || kinds[EventToolCallResult] != 1 || kinds[EventUsage] != 2 || kinds[EventTurnEnd] != 1 || kinds[EventTextDelta] != 1 {
		t.Fatalf("event counts = %v", kinds)
	}
	if events[len(events)-1].Kind != EventTurnEnd {
		t.Fatalf("last event = %v", events[len(events)-1].Kind)
	}
}

func TestReadOnlyCallsRunInParallelOthersDoNot(t *testing.T) {
	t.Parallel()
	for _, readOnly := range []bool{true, false} {
		sl := &sleeper{name: "nap", readOnly: readOnly}
		calls := []llm.ToolCall{}
		for i := range 3 {
			calls = append(calls, llm.ToolCall{ID: fmt.Sprint(i), Name: "nap", Arguments: args(sleepParams{Millis: 60})})
		}
		p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){call(calls...), say("ok", llm.Usage{})}}
		a := newAgent(t, p, Options{}, sl.tool())
		a.Run(context.Background(), "go", nil)
		got := sl.maxActive.Load()
		if readOnly && got < 2 {
			t.Errorf("read-only calls ran with at most %d at once, want parallel", got)
		}
		if !readOnly && got != 1 {
			t.Errorf("mutating calls ran %d at once, want one at a time", got)
		}
		checkHistory(t, a.History())
	}
}

func TestModelMistakesGoBackToTheModel(t *testing.T) {
	t.Parallel()
	sl := &sleeper{name: "nap", readOnly: true}
	boom := tool.New(tool.Def[struct{}]{Info: tool.Info{Name: "boom", ReadOnly: true},
		Run: func(context.Context, tool.Call, struct{}) (tool.Result, error) { panic("kaboom") }})
	p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){
		call(
			llm.ToolCall{ID: "u", Name: "nope", Arguments: "{}"},
			llm.ToolCall{ID: "j", Name: "nap", Arguments: `{"millis": `},
			llm.ToolCall{ID: "s", Name: "nap", Arguments: `{"millis": "x"}`},
			llm.ToolCall{ID: "b", Name: "boom", Arguments: ``},
		),
		say("recovered", llm.Usage{}),
	}}
	a := newAgent(t, p, Options{}, sl.tool(), boom)
	res := a.Run(context.Background(), "go", nil)
	if res.Stop != StopEndTurn || res.Text != "recovered" {
		t.Fatalf("result = %+v", res)
	}
	h := a.History()
	checkHistory(t, h)
	want := map[string]string{"u": "unknown tool", "j": "not valid JSON", "s": "invalid arguments", "b": "kaboom"}
	for _, m := range h {
		if m.Role != llm.RoleTool {
			continue
		}
		if !m.IsError || !strings.Contains(m.Content, want[m.ToolCallID]) {
			t.Errorf("result for %s = %q (error %v), want it to mention %q", m.ToolCallID, m.Content, m.IsError, want[m.ToolCallID])
		}
	}
}

type fakeApprover struct {
	decisions []Decision
	asked     []ToolEvent
}

func (f *fakeApprover) Approve(_ context.Context, ev ToolEvent) (Decision, error) {
	f.asked = append(f.asked, ev)
	d := f.decisions[0]
	f.decisions = f.decisions[1:]
	return d, nil
}

func TestPermissions(t *testing.T) {
	t.Parallel()
	mk := func() (*sleeper, *scripted) {
		sl := &sleeper{name: "act"}
		return sl, &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){
			call(llm.ToolCall{ID: "1", Name: "act", Arguments: args(sleepParams{Tag: "one"})}),
			call(llm.ToolCall{ID: "2", Name: "act", Arguments: args(sleepParams{Tag: "two"})}),
			say("end", llm.Usage{}),
		}}
	}
	t.Run("headless ask is a refusal, not a hang", func(t *testing.T) {
		sl, p := mk()
		a := newAgent(t, p, Options{Policy: &permission.Policy{WorkDir: t.TempDir(), Trusted: true}}, sl.tool())
		done := make(chan Result, 1)
		go func() { done <- a.Run(context.Background(), "go", nil) }()
		select {
		case res := <-done:
			if res.Stop != StopEndTurn {
				t.Fatalf("result = %+v", res)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("run hung waiting for an approval nobody can give")
		}
		h := a.History()
		if !strings.Contains(h[2].Content, "no one can approve") || !h[2].IsError {
			t.Fatalf("refusal = %+v", h[2])
		}
	})
	t.Run("deny with feedback then allow for session", func(t *testing.T) {
		sl, p := mk()
		ap := &fakeApprover{decisions: []Decision{{Allow: false, Feedback: "use git instead"}, {Allow: true, ForSession: true}}}
		a := newAgent(t, p, Options{Approver: ap, Policy: &permission.Policy{WorkDir: t.TempDir(), Trusted: true}}, sl.tool())
		res := a.Run(context.Background(), "go", nil)
		if res.Stop != StopEndTurn {
			t.Fatalf("denial ended the turn: %+v", res)
		}
		h := a.History()
		if !strings.Contains(h[2].Content, "use git instead") || h[4].Content != "slept two" {
			t.Fatalf("history = %+v", h)
		}
		// A third call to the same tool must not ask again.
		p.turns = append(p.turns, call(llm.ToolCall{ID: "3", Name: "act", Arguments: args(sleepParams{Tag: "three"})}), say("end", llm.Usage{}))
		a.Run(context.Background(), "again", nil)
		if len(ap.asked) != 2 {
			t.Fatalf("asked %d times, want 2", len(ap.asked))
		}
	})
	t.Run("untrusted folder refuses mutating tools", func(t *testing.T) {
		sl, p := mk()
		a := newAgent(t, p, Options{Policy: &permission.Policy{WorkDir: t.TempDir(), AutoApprove: true}}, sl.tool())
		a.Run(context.Background(), "go", nil)
		if h := a.History(); !strings.Contains(h[2].Content, "not trusted") {
			t.Fatalf("result = %q", h[2].Content)
		}
	})
}

func TestCancelDuringToolLeavesValidHistory(t *testing.T) {
	t.Parallel()
	sl := &sleeper{name: "act"}
	p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){
		call(
			llm.ToolCall{ID: "1", Name: "act", Arguments: args(sleepParams{Millis: 10000, Tag: "long"})},
			llm.ToolCall{ID: "2", Name: "act", Arguments: args(sleepParams{Millis: 10, Tag: "never"})},
		),
	}}
	a := newAgent(t, p, Options{}, sl.tool())
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	start := time.Now()
	res := a.Run(ctx, "go", func(e Event) {
		if e.Kind == EventToolCallStart {
			once.Do(func() { time.AfterFunc(20*time.Millisecond, cancel) })
		}
	})
	if res.Stop != StopCancelled || time.Since(start) > 5*time.Second {
		t.Fatalf("result = %+v after %v", res, time.Since(start))
	}
	h := a.History()
	checkHistory(t, h)
	if !strings.Contains(h[2].Content, "cancelled") || !strings.Contains(h[3].Content, "cancelled") {
		t.Fatalf("results = %q / %q", h[2].Content, h[3].Content)
	}
}

func TestCancelDuringStreamKeepsPartialText(t *testing.T) {
	t.Parallel()
	p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){
		func(ctx context.Context, emit func(llm.StreamEvent)) (*llm.Response, error) {
			emit(llm.StreamEvent{Kind: llm.EventTextDelta, Text: "half an ans"})
			<-ctx.Done()
			return nil, ctx.Err()
		},
	}}
	a := newAgent(t, p, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	res := a.Run(ctx, "go", func(e Event) {
		if e.Kind == EventTextDelta {
			cancel()
		}
	})
	h := a.History()
	if res.Stop != StopCancelled || len(h) != 2 || h[1].Content != "half an ans" {
		t.Fatalf("result %+v, history %+v", res, h)
	}
}

func TestProviderErrorEndsRunWithError(t *testing.T) {
	t.Parallel()
	p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){
		func(context.Context, func(llm.StreamEvent)) (*llm.Response, error) {
			return nil, &llm.APIError{Status: 400, Message: "bad model", URL: "http://x/v1/chat/completions"}
		},
	}}
	a := newAgent(t, p, Options{})
	var events []Event
	res := a.Run(context.Background(), "go", collect(&events))
	if res.Stop != StopError || res.Err == nil || !strings.Contains(res.Err.Error(), "bad model") {
		t.Fatalf("result = %+v", res)
	}
	last := events[len(events)-1]
	if last.Kind != EventTurnEnd || last.Stop != StopError {
		t.Fatalf("last event = %+v", last)
	}
}

func TestBusyAgentRefusesSecondRun(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){
		func(context.Context, func(llm.StreamEvent)) (*llm.Response, error) {
			<-release
			return &llm.Response{Message: llm.Message{Content: "x"}}, nil
		},
	}}
	a := newAgent(t, p, Options{})
	started := make(chan struct{})
	done := make(chan struct{})
	go func() {
		close(started)
		a.Run(context.Background(), "one", nil)
		close(done)
	}()
	<-started
	deadline := time.Now().Add(5 * time.Second)
	for {
		p.mu.Lock()
		n := len(p.requests)
		p.mu.Unlock()
		if n == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if res := a.Run(context.Background(), "two", nil); !errors.Is(res.Err, ErrBusy) {
		t.Fatalf("second run = %+v", res)
	}
	close(release)
	<-done
}
