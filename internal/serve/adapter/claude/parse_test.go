package claude

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/internal/adaptertest"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// The claude-real-*.jsonl transcripts were printed by the real Claude Code 2.1.328
// against the fake model server (claude_real_test.go drives the same runs live).

func TestClaudeAnswerIsTheFinalResult(t *testing.T) {
	t.Parallel()
	// Turn 1 narrates ("Running a command.") and calls Bash; turn 2 answers.
	out := adaptertest.Transcript(t, "claude-real-tool-partial.jsonl")
	res := (&Adapter{}).ParseOutput(out, &backend.Request{})
	if res.Text != "DONE after tool" {
		t.Errorf("text %q, want only the final result (the narration stays in the records)", res.Text)
	}
	if res.SessionID == "" || res.StopReason != "end_turn" || res.ProviderError != "" || res.OutputError != "" {
		t.Errorf("result %+v", res)
	}
	if u := res.Usage; u.InputTokens != 300 || u.OutputTokens != 15 || u.Cost != 0.0015 || u.Currency != "USD" {
		t.Errorf("usage %+v, want 300 in, 15 out, $0.0015", u)
	}

	evs := adaptertest.StreamAll(&Adapter{}, &backend.Request{StreamTokens: true}, out)
	if got := adaptertest.Deltas(evs); strings.Join(got, "|") != "DONE |after tool" {
		t.Errorf("streamed deltas %q, want the final message's tokens only", got)
	}
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, string(e.Kind))
	}
	if got := strings.Join(kinds, " "); got != "session tool_call tool_result delta delta usage" {
		t.Errorf("events %q", got)
	}
	if call := evs[1].Tool; call.Name != "Bash" || call.ID != "toolu_1" || !strings.Contains(string(call.Arguments), "echo hi") {
		t.Errorf("tool call %+v", call)
	}
}

func TestClaudeNonPartialStreamSendsTheResultOnce(t *testing.T) {
	t.Parallel()
	// Hand-written: narration then answer, as whole messages.
	evs := adaptertest.StreamAll(&Adapter{}, &backend.Request{}, adaptertest.Transcript(t, "claude.jsonl"))
	if got := adaptertest.Deltas(evs); len(got) != 1 || got[0] != "There is one Go file: main.go." {
		t.Errorf("deltas %q, want the result's answer alone", got)
	}
}

func TestClaudeCostIsTheRunsOwn(t *testing.T) {
	t.Parallel()
	// The continued run: total_cost_usd is 0.0065 (the session's), this run 0.005.
	out := adaptertest.Transcript(t, "claude-real-continued.jsonl")
	res := (&Adapter{}).ParseOutput(out, &backend.Request{Continue: true})
	if res.Usage.Cost != 0.005 || res.Usage.InputTokens != 1000 || res.Usage.OutputTokens != 50 {
		t.Errorf("continued run usage %+v, want $0.005 for 1000 in, 50 out", res.Usage)
	}
	evs := adaptertest.StreamAll(&Adapter{}, &backend.Request{Continue: true}, out)
	if u := evs[len(evs)-1].Usage; u == nil || u.Cost != 0.005 {
		t.Errorf("streamed usage %+v", u)
	}

	// Without the per-run figure (an older CLI): the total is the run's own only in a
	// fresh session; a continued run with no tokens owes nothing.
	noFigure := func(result string) []byte {
		return []byte(`{"type":"result","subtype":"success","is_error":false,"result":"ok",` + result + `}`)
	}
	tests := []struct {
		name   string
		req    backend.Request
		record string
		want   float64
	}{
		{"fresh", backend.Request{}, `"total_cost_usd":0.3,"usage":{"input_tokens":10}`, 0.3},
		{"continued, no tokens", backend.Request{Continue: true}, `"total_cost_usd":0.3,"usage":{"input_tokens":0}`, 0},
		{"resumed, tokens", backend.Request{Resume: "s"}, `"total_cost_usd":0.3,"usage":{"input_tokens":10}`, 0.3},
		{"per-run figure over two models", backend.Request{Continue: true},
			`"total_cost_usd":0.3,"usage":{"input_tokens":10},"model_usage_since_last_result":{"a":{"costUSD":0.01},"b":{"costUSD":0.02}}`, 0.03},
	}
	for _, tc := range tests {
		if got := (&Adapter{}).ParseOutput(noFigure(tc.record), &tc.req).Usage.Cost; got != tc.want {
			t.Errorf("%s: cost %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestClaudeProviderError(t *testing.T) {
	t.Parallel()
	// The real CLI exits 1 after a provider 400 and says so in its result record.
	out := adaptertest.Transcript(t, "claude-real-error.jsonl")
	res := (&Adapter{}).ParseOutput(out, &backend.Request{})
	want := "API Error: 400 Output blocked by content filtering policy"
	if res.ProviderError != want || res.ErrorKind != backend.ErrorProvider || res.Text != "" {
		t.Errorf("provider error %q kind %q text %q, want %q, provider, no text", res.ProviderError, res.ErrorKind, res.Text, want)
	}
	evs := adaptertest.StreamAll(&Adapter{}, &backend.Request{}, out)
	last := evs[len(evs)-1]
	if last.Kind != backend.EventError || last.Text != want || last.ErrorKind != backend.ErrorProvider || len(adaptertest.Deltas(evs)) != 0 {
		t.Errorf("events %+v", evs)
	}

	for status, kind := range map[string]backend.ErrorKind{"429": backend.ErrorRateLimit, "401": backend.ErrorAuth, "403": backend.ErrorAuth, "529": backend.ErrorProvider, "null": ""} {
		rec := `{"type":"result","is_error":true,"result":"API Error","api_error_status":` + status + `}`
		if got := (&Adapter{}).ParseOutput([]byte(rec), &backend.Request{}); got.ErrorKind != kind || got.ProviderError != "API Error" {
			t.Errorf("status %s: kind %q, error %q; want %q", status, got.ErrorKind, got.ProviderError, kind)
		}
	}
}

// A result with an error_* subtype is Claude Code's own failure, not the
// provider's: AgentError with the subtype and the CLI's messages, kind agent.
func TestClaudeAgentsOwnFailure(t *testing.T) {
	t.Parallel()
	// The real CLI run with --max-turns 1 against a model that calls Bash: it ran
	// the tool, then stopped before the next model call and exited 1.
	out := adaptertest.Transcript(t, "claude-real-max-turns.jsonl")
	res := (&Adapter{}).ParseOutput(out, &backend.Request{})
	want := "claude stopped: error_max_turns: Reached maximum number of turns (1)"
	if res.AgentError != want || res.ErrorKind != backend.ErrorAgent || res.ProviderError != "" || res.Text != "" || res.OutputError != "" {
		t.Errorf("result: agent %q, kind %q, provider %q, text %q, output %q; want agent %q", res.AgentError, res.ErrorKind, res.ProviderError, res.Text, res.OutputError, want)
	}
	if res.Usage.InputTokens != 100 || res.SessionID == "" {
		t.Errorf("what was read: usage %+v, session %q", res.Usage, res.SessionID)
	}
	evs := adaptertest.StreamAll(&Adapter{}, &backend.Request{}, out)
	last := evs[len(evs)-1]
	if last.Kind != backend.EventError || last.Text != want || last.ErrorKind != backend.ErrorAgent || len(adaptertest.Deltas(evs)) != 0 {
		t.Errorf("events %+v", evs)
	}

	// Hand-written from Claude Code 2.1.328's result schema (its bundle lists the
	// error subtypes error_during_execution, error_max_turns, error_max_budget_usd
	// and error_max_structured_output_retries, each with "errors" and no "result"):
	// an aborted turn, which a test cannot provoke through the fake model.
	rec := `{"type":"result","subtype":"error_during_execution","is_error":true,"errors":["Request was aborted."],"num_turns":1}`
	got := (&Adapter{}).ParseOutput([]byte(rec), &backend.Request{})
	if got.AgentError != "claude stopped: error_during_execution: Request was aborted." || got.ErrorKind != backend.ErrorAgent || got.ProviderError != "" {
		t.Errorf("error_during_execution: %+v", got)
	}
	rec = `{"type":"result","subtype":"error_max_budget_usd","is_error":true}`
	if got := (&Adapter{}).ParseOutput([]byte(rec), &backend.Request{}); got.AgentError != "claude stopped: error_max_budget_usd" {
		t.Errorf("without messages: %q", got.AgentError)
	}
}

func TestClaudeStructuredOutput(t *testing.T) {
	t.Parallel()
	// The model said "Here it is." and called StructuredOutput with {"answer":42}.
	out := adaptertest.Transcript(t, "claude-real-structured.jsonl")
	if res := (&Adapter{}).ParseOutput(out, &backend.Request{}); res.Text != `{"answer":42}` {
		t.Errorf("text %q, want the structured output", res.Text)
	}
	if got := adaptertest.Deltas(adaptertest.StreamAll(&Adapter{}, &backend.Request{StreamTokens: true}, out)); len(got) != 1 || got[0] != `{"answer":42}` {
		t.Errorf("deltas %q", got)
	}
}

// Whatever Claude Code prints, the run keeps what it could read and says what it
// could not, quoting the line.
func TestClaudeUnexpectedOutput(t *testing.T) {
	t.Parallel()
	good := adaptertest.Transcript(t, "claude-real-tool-partial.jsonl")
	cut := bytes.LastIndex(good, []byte(`{"type":"result"`))
	if cut < 0 {
		cut = bytes.LastIndex(good, []byte("\n{"))
	}
	tests := []struct {
		name      string
		out       []byte
		text      string
		errorHas  []string
		streamErr string
	}{
		// Reported once however often it comes, the rest read as usual.
		{"a new record type", append([]byte(`{"type":"telemetry_v9","x":1}`+"\n"+`{"type":"telemetry_v9","x":2}`+"\n"), good...), "DONE after tool",
			[]string{`record of a type this adapter does not read ("telemetry_v9"; Claude Code 2.1.328 was tested), skipped: "{\"type\":\"telemetry_v9\",\"x\":1}"`},
			`"telemetry_v9"`},
		// Types Claude Code prints that carry nothing a run needs are no problem.
		{"a known record type skipped", append([]byte(`{"type":"rate_limit_event","rate_limit_info":{}}`+"\n"), good...), "DONE after tool", nil, ""},
		{"a line that is not JSON", append([]byte("Warning: low disk\n"), good...), "DONE after tool",
			[]string{`not a JSON record: "Warning: low disk"`}, `not a JSON record: "Warning: low disk"`},
		{"a truncated record", append(good[:cut:cut], []byte(`{"type":"result","subtype":"succ`)...), "DONE after tool",
			[]string{`cannot be read`, `{\"type\":\"result\",\"subtype\":\"succ`, "ended without its result record"}, "cannot be read"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := (&Adapter{}).ParseOutput(tc.out, &backend.Request{})
			if res.Text != tc.text || res.SessionID == "" {
				t.Errorf("text %q session %q, want %q", res.Text, res.SessionID, tc.text)
			}
			for _, want := range tc.errorHas {
				if !strings.Contains(res.OutputError, want) {
					t.Errorf("output error %q lacks %q", res.OutputError, want)
				}
			}
			if len(tc.errorHas) == 0 && res.OutputError != "" {
				t.Errorf("output error %q for a readable run", res.OutputError)
			}
			if strings.Count(res.OutputError, "does not read") > 1 {
				t.Errorf("a new type reported more than once: %q", res.OutputError)
			}
			evs := adaptertest.StreamAll(&Adapter{}, &backend.Request{}, tc.out)
			i := slices.IndexFunc(evs, func(e backend.Event) bool { return e.Kind == backend.EventError })
			switch {
			case tc.streamErr == "" && i >= 0:
				t.Errorf("error event %q for a readable line", evs[i].Text)
			case tc.streamErr != "" && (i < 0 || !strings.Contains(evs[i].Text, tc.streamErr)):
				t.Errorf("no error event with %q in %+v", tc.streamErr, evs)
			}
		})
	}
}

func TestClaudeAsRoot(t *testing.T) {
	t.Parallel()
	root := func() int { return 0 }
	user := func() int { return 1000 }
	tests := []struct {
		name      string
		c         Adapter
		refused   bool
		isSandbox bool
	}{
		{"root outside a sandbox", Adapter{Geteuid: root}, true, false},
		{"root in a sandbox", Adapter{Geteuid: root, Sandboxed: true}, false, true},
		{"a user", Adapter{Geteuid: user}, false, false},
		{"a user in a sandbox: Claude Code needs no switch", Adapter{Geteuid: user, Sandboxed: true}, false, false},
	}
	for _, tc := range tests {
		err := tc.c.CheckRoot()
		if (err != nil) != tc.refused {
			t.Errorf("%s: CheckRoot = %v", tc.name, err)
		}
		if err != nil {
			for _, hint := range []string{"root", "ALBERT_CODE_ADAPTER_SANDBOX=workspace-write", "ALBERT_CODE_SANDBOXED=1", "unprivileged user"} {
				if !strings.Contains(err.Error(), hint) {
					t.Errorf("%s: refusal %q does not say %q", tc.name, err, hint)
				}
			}
		}
		env := cli.Env(&tc.c, &backend.Request{Env: map[string]string{"A": "1"}}, []string{"PATH=/bin", "IS_SANDBOX=0"})
		if got := slices.Contains(env, "IS_SANDBOX=1"); got != tc.isSandbox {
			t.Errorf("%s: env %q", tc.name, env)
		}
		if !slices.Contains(env, "A=1") || !slices.Contains(env, "PATH=/bin") {
			t.Errorf("%s: env %q lost the base or the request's variables", tc.name, env)
		}
	}
}
