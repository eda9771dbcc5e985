package adapter

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/albertcode"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/codex"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/internal/adaptertest"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/pi"
	"github.com/etalab-ia/albert-code/internal/serve/backend"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/headless"
	"github.com/etalab-ia/albert-code/internal/llm"
)

func TestParseOutput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		adapter    cli.Adapter
		transcript string
		want       backend.Result
	}{
		{&claude.Adapter{}, "claude.jsonl", backend.Result{
			// The final result, not the narration before the tool call.
			Text: "There is one Go file: main.go.", SessionID: adaptertest.ClaudeSession,
			Usage:      backend.Usage{InputTokens: 24, OutputTokens: 45, CacheReadTokens: 4100, CacheWriteTokens: 100, Cost: 0.0123, Currency: "USD"},
			StopReason: "end_turn",
		}},
		{&claude.Adapter{}, "claude-partial.jsonl", backend.Result{
			Text: "Hello!", SessionID: adaptertest.ClaudeSession, StopReason: "end_turn",
			Usage: backend.Usage{InputTokens: 10, OutputTokens: 3, Cost: 0.0002, Currency: "USD"},
		}},
		{&claude.Adapter{}, "claude-error.jsonl", backend.Result{
			SessionID:     adaptertest.ClaudeSession,
			ProviderError: "API Error: 400 Output blocked by content filtering policy",
		}},
		{&pi.Adapter{}, "pi.jsonl", backend.Result{
			Text: "There is one Go file: main.go.", SessionID: adaptertest.PiSession, StopReason: "stop",
			Usage: backend.Usage{InputTokens: 120, OutputTokens: 15, CacheReadTokens: 30, Cost: 0.000594, Currency: "USD"},
		}},
		{&pi.Adapter{}, "pi-error.jsonl", backend.Result{
			SessionID: adaptertest.PiSession, StopReason: "error",
			ProviderError: `400 {"error":{"code":"1301","message":"content flagged as unsafe"}}`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.transcript, func(t *testing.T) {
			t.Parallel()
			got := tc.adapter.ParseOutput(adaptertest.Transcript(t, tc.transcript), &backend.Request{})
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// Garbage, empty output and a transcript cut anywhere give an empty result, never a panic.
func TestParseOutputSurvivesGarbage(t *testing.T) {
	t.Parallel()
	garbage := [][]byte{nil, []byte("\n\n"), []byte("not json\n{\"type\": broken\n[1,2]\nnull\n\"str\"\n"),
		[]byte(`{"type":"assistant","message":{"content":42}}` + "\n" + `{"type":"result","usage":"many"}`)}
	for _, name := range []string{"claude.jsonl", "codex.jsonl", "pi.jsonl"} {
		data := adaptertest.Transcript(t, name)
		for i := 0; i < len(data); i += 97 {
			garbage = append(garbage, data[:i])
		}
	}
	for _, a := range []cli.Adapter{&claude.Adapter{}, &codex.Adapter{}, &pi.Adapter{}, &albertcode.Adapter{}} {
		for _, g := range garbage {
			_ = a.ParseOutput(g, &backend.Request{})
			s := cli.NewStream(a, &backend.Request{})
			for line := range cli.Lines(g) {
				_ = s.Line(line)
			}
		}
	}
}

func TestStreams(t *testing.T) {
	t.Parallel()
	tests := []struct {
		adapter    cli.Adapter
		transcript string
		deltas     []string
		kinds      string // every event kind in order
	}{
		// Without partial messages, the result's answer: the narration is not answer.
		{&claude.Adapter{}, "claude.jsonl", []string{"There is one Go file: main.go."}, "session tool_call tool_result delta usage"},
		// Per token with them, the complete message not repeated.
		{&claude.Adapter{}, "claude-partial.jsonl", []string{"Hel", "lo!"}, "session delta delta usage"},
		{&claude.Adapter{}, "claude-error.jsonl", nil, "session usage error"},
		// Thinking deltas are not part of the answer.
		{&pi.Adapter{}, "pi.jsonl", []string{"There is one", " Go file: main.go."}, "session delta delta usage"},
		{&pi.Adapter{}, "pi-error.jsonl", nil, "session error"},
	}
	for _, tc := range tests {
		t.Run(tc.transcript, func(t *testing.T) {
			t.Parallel()
			evs := adaptertest.StreamAll(tc.adapter, &backend.Request{}, adaptertest.Transcript(t, tc.transcript))
			var kinds []string
			for _, e := range evs {
				kinds = append(kinds, string(e.Kind))
			}
			if got := strings.Join(kinds, " "); got != tc.kinds {
				t.Errorf("kinds %q, want %q", got, tc.kinds)
			}
			if got := adaptertest.Deltas(evs); strings.Join(got, "|") != strings.Join(tc.deltas, "|") {
				t.Errorf("deltas %q, want %q", got, tc.deltas)
			}
		})
	}
}

// The albert-code transcript comes from the real headless printer, so a change of
// its format breaks this test rather than the adapter in production.
func TestAlbertCodeReadsHeadlessStreamJSON(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	_, err := headless.Run(t.Context(), scriptedAgent{}, "list the go files", headless.Options{
		Format: headless.FormatStreamJSON, SessionID: "20260113-093301-4f2a", Stdout: &out, Stderr: &out,
	})
	if err != nil {
		t.Fatal(err)
	}
	a := &albertcode.Adapter{}
	got := a.ParseOutput(out.Bytes(), &backend.Request{})
	want := backend.Result{Text: "There is one Go file: main.go.", SessionID: "20260113-093301-4f2a", StopReason: "end_turn",
		Usage: backend.Usage{InputTokens: 650, OutputTokens: 32, Cost: 0.002, Currency: "EUR"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("\n got %+v\nwant %+v\noutput:\n%s", got, want, out.String())
	}
	// Continuing a session: the summary's cost covers earlier runs, so it is dropped.
	if got := a.ParseOutput(out.Bytes(), &backend.Request{Continue: true}); got.Usage.Cost != 0 || got.Usage.InputTokens != 650 {
		t.Errorf("continued run usage %+v", got.Usage)
	}
	evs := adaptertest.StreamAll(a, &backend.Request{}, out.Bytes())
	if d := strings.Join(adaptertest.Deltas(evs), ""); d != "There is one Go file: main.go." {
		t.Errorf("streamed %q", d)
	}
}

// scriptedAgent plays a two-call run through headless's Runner interface.
type scriptedAgent struct{}

func (scriptedAgent) Run(_ context.Context, _ string, emit func(agent.Event)) agent.Result {
	u1, u2 := llm.Usage{InputTokens: 300, OutputTokens: 20}, llm.Usage{InputTokens: 350, OutputTokens: 12}
	emit(agent.Event{Kind: agent.EventTextDelta, Text: "There is one"})
	emit(agent.Event{Kind: agent.EventToolCallStart, Tool: &agent.ToolEvent{ID: "call_1", Name: "glob"}})
	emit(agent.Event{Kind: agent.EventUsage, Usage: &u1, Stats: &agent.Stats{Turns: 1, Usage: u1, Cost: 0.001}})
	emit(agent.Event{Kind: agent.EventTextDelta, Text: " Go file: main.go."})
	total := llm.Usage{InputTokens: 650, OutputTokens: 32}
	emit(agent.Event{Kind: agent.EventUsage, Usage: &u2, Stats: &agent.Stats{Turns: 2, Usage: total, Cost: 0.002}})
	return agent.Result{Text: "There is one Go file: main.go.", Stop: agent.StopEndTurn,
		Stats: agent.Stats{Turns: 2, Usage: total, Cost: 0.002}}
}
