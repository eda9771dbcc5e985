package structured

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// script is a fake agent: one result per attempt, and a record of the turns asked.
type script struct {
	results []backend.Result
	turns   []Turn
}

func (s *script) attempt(_ context.Context, t Turn) (backend.Result, error) {
	s.turns = append(s.turns, t)
	if len(s.turns) > len(s.results) {
		return backend.Result{}, errors.New("the driver asked for one attempt too many")
	}
	return s.results[len(s.turns)-1], nil
}

func answer(text, session string, in int64) backend.Result {
	return backend.Result{Text: text, SessionID: session, Usage: backend.Usage{InputTokens: in, OutputTokens: 1}, Stopped: "exited"}
}

func TestRunRetriesInTheSameSession(t *testing.T) {
	t.Parallel()
	s := mustCompile(t, personSchema)
	sc := &script{results: []backend.Result{
		answer("Sure, here it is: Ada, 36", "sess-1", 1000),
		answer(`{"name":"Ada","age":"36"}`, "sess-1", 1100),
		answer("```json\n{\"name\":\"Ada\",\"age\":36}\n```", "sess-1", 1200),
	}}
	o, err := Run(t.Context(), "Who is the first programmer? As JSON.", s, sc.attempt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if o.End != Matched || string(o.Parsed.JSON) != `{"name":"Ada","age":36}` {
		t.Fatalf("end %s, json %s", o.End, o.Parsed.JSON)
	}
	if o.Usage.InputTokens != 3300 || o.Usage.OutputTokens != 3 {
		t.Errorf("usage %+v, want the sum of the three attempts", o.Usage)
	}
	if len(o.Attempts) != 3 || o.Retries() != 2 || o.Attempts[1].Usage.InputTokens != 1100 {
		t.Errorf("attempts %+v", o.Attempts)
	}
	if o.Attempts[0].ParseError == "" || !strings.Contains(o.Attempts[1].ParseError, "at /age") || o.Attempts[2].ParseError != "" {
		t.Errorf("parse errors %q", []string{o.Attempts[0].ParseError, o.Attempts[1].ParseError, o.Attempts[2].ParseError})
	}
	first, second, third := sc.turns[0], sc.turns[1], sc.turns[2]
	if first.Resume != "" || first.Prompt != "Who is the first programmer? As JSON." || first.Index != 0 {
		t.Errorf("first turn %+v", first)
	}
	if second.Resume != "sess-1" || second.Index != 1 || strings.Contains(second.Prompt, "first programmer") {
		t.Errorf("second turn %+v: want the session resumed and a prompt without the task", second)
	}
	if !strings.Contains(second.Prompt, "could not be read as JSON") || !strings.Contains(third.Prompt, "- at /age: got string, want integer") {
		t.Errorf("corrective prompts do not name the problems:\n%s\n---\n%s", second.Prompt, third.Prompt)
	}
	if !strings.HasSuffix(third.Prompt, string(s.JSON())) {
		t.Errorf("the corrective prompt does not end with the schema:\n%s", third.Prompt)
	}
}

func TestRunWithoutSessionRestatesTheTask(t *testing.T) {
	t.Parallel()
	s := mustCompile(t, personSchema)
	sc := &script{results: []backend.Result{answer(`{"name":"Ada"}`, "", 10), answer(`{"name":"Ada","age":36}`, "", 10)}}
	o, err := Run(t.Context(), "THE TASK", s, sc.attempt, Options{})
	if err != nil || o.End != Matched {
		t.Fatalf("end %s, err %v", o.End, err)
	}
	retry := sc.turns[1]
	if retry.Resume != "" || !strings.Contains(retry.Prompt, "THE TASK") || !strings.Contains(retry.Prompt, `{"name":"Ada"}`) {
		t.Errorf("fresh retry %+v: want the task and the previous answer restated", retry)
	}
}

func TestRunExhausted(t *testing.T) {
	t.Parallel()
	s := mustCompile(t, personSchema)
	bad := answer("no idea", "sess", 5)
	sc := &script{results: []backend.Result{bad, bad, bad, bad}}
	o, err := Run(t.Context(), "task", s, sc.attempt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if o.End != Exhausted || len(sc.turns) != 1+DefaultMaxRetries || o.Err == nil || !o.Err.NotJSON {
		t.Fatalf("end %s after %d turns, err %v", o.End, len(sc.turns), o.Err)
	}
	if o.Usage.InputTokens != 20 || o.Last().Text != "no idea" || o.SessionID() != "sess" {
		t.Errorf("usage %+v, last %q, session %q", o.Usage, o.Last().Text, o.SessionID())
	}
}

func TestRunStopsWithoutRetrying(t *testing.T) {
	t.Parallel()
	s := mustCompile(t, personSchema)
	crashed := answer("", "", 3)
	crashed.ExitCode = 1
	timedOut := answer("{", "", 3)
	timedOut.Stopped = "timeout"
	cancelled := answer("", "", 0)
	cancelled.Stopped = "cancelled"
	refused := answer("", "", 1)
	refused.ProviderError = "quota exhausted"
	refusedWithExit := refused
	refusedWithExit.ExitCode = 1
	// The agent's own failure (Claude Code's error_max_turns) is no answer to
	// correct, even with exit 0.
	ownFailure := answer("", "s", 1)
	ownFailure.AgentError = "claude stopped: error_max_turns: Reached maximum number of turns (1)"
	tests := []struct {
		name    string
		results []backend.Result
		opts    Options
		want    End
		turns   int
	}{
		{"crash at once", []backend.Result{crashed}, Options{}, AgentFailed, 1},
		{"crash on a retry keeps the parse error", []backend.Result{answer("x", "s", 1), crashed}, Options{}, AgentFailed, 2},
		{"timeout", []backend.Result{timedOut}, Options{}, AgentFailed, 1},
		{"cancelled run", []backend.Result{cancelled}, Options{}, Cancelled, 1},
		{"provider refusal", []backend.Result{refused}, Options{}, ProviderRefused, 1},
		{"provider refusal and exit 1", []backend.Result{refusedWithExit}, Options{}, ProviderRefused, 1},
		{"the agent's own failure", []backend.Result{ownFailure}, Options{}, AgentFailed, 1},
		{"no retries asked", []backend.Result{answer("x", "s", 1)}, Options{MaxRetries: -1}, Exhausted, 1},
		{"one retry asked", []backend.Result{answer("x", "s", 1), answer("y", "s", 1)}, Options{MaxRetries: 1}, Exhausted, 2},
		{"unchecked answer", []backend.Result{answer(`{"tool_calls":[]}`, "s", 1)},
			Options{Unchecked: func(r backend.Result) bool { return strings.Contains(r.Text, "tool_calls") }}, Unchecked, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sc := &script{results: tc.results}
			o, err := Run(t.Context(), "task", s, sc.attempt, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if o.End != tc.want || len(sc.turns) != tc.turns || len(o.Attempts) != tc.turns {
				t.Errorf("end %s after %d turns (%d attempts), want %s after %d", o.End, len(sc.turns), len(o.Attempts), tc.want, tc.turns)
			}
			if tc.name == "crash on a retry keeps the parse error" && (o.Err == nil || o.Attempts[1].ParseError != "") {
				t.Errorf("err %v, attempts %+v", o.Err, o.Attempts)
			}
		})
	}
}

func TestRunStopsWhenTheContextEnds(t *testing.T) {
	t.Parallel()
	s := mustCompile(t, personSchema)
	ctx, cancel := context.WithCancel(t.Context())
	calls := 0
	o, err := Run(ctx, "task", s, func(context.Context, Turn) (backend.Result, error) {
		calls++
		cancel() // the client leaves during the first attempt
		return answer("not json", "s", 1), nil
	}, Options{})
	if !errors.Is(err, context.Canceled) || o.End != Cancelled || calls != 1 {
		t.Errorf("err %v, end %s, calls %d", err, o.End, calls)
	}
}

func TestRunReturnsTheAttemptError(t *testing.T) {
	t.Parallel()
	boom := errors.New("workspace queue full")
	o, err := Run(t.Context(), "task", mustCompile(t, personSchema), func(context.Context, Turn) (backend.Result, error) {
		return backend.Result{}, boom
	}, Options{})
	if !errors.Is(err, boom) || o.End != AgentFailed || len(o.Attempts) != 0 {
		t.Errorf("err %v, end %s, attempts %d", err, o.End, len(o.Attempts))
	}
}

func TestCorrectionInSessionIsMinimal(t *testing.T) {
	t.Parallel()
	s := mustCompile(t, personSchema)
	perr := &ParseError{Problems: []Problem{{Path: "/age", Message: "got string, want integer"}}}
	p := CorrectionInSession(perr, s)
	if n := len(p) - len(s.JSON()); n > 400 {
		t.Errorf("the corrective prompt is %d bytes besides the schema:\n%s", n, p)
	}
}

func TestCorrectionFreshCutsALongAnswer(t *testing.T) {
	t.Parallel()
	s := mustCompile(t, personSchema)
	long := strings.Repeat("é", previousAnswerLimit)
	p := CorrectionFresh("task", long, &ParseError{NotJSON: true, Detail: "no JSON value found"}, s)
	if !strings.Contains(p, "[... cut]") || len(p) > previousAnswerLimit+1000 || !json.Valid([]byte(s.JSON())) {
		t.Errorf("prompt of %d bytes", len(p))
	}
	if strings.ContainsRune(p, '\uFFFD') {
		t.Error("a rune was cut in half")
	}
}

func TestEnvelopesNumberRecordsAcrossAttempts(t *testing.T) {
	t.Parallel()
	rec := func(typ string) backend.Record {
		return backend.Record{Type: typ, Event: json.RawMessage(`{"type":"` + typ + `"}`)}
	}
	o := &Outcome{Attempts: []Attempt{
		{Index: 0, Result: backend.Result{Records: []backend.Record{rec("init"), rec("result")}}},
		{Index: 1, Result: backend.Result{Records: []backend.Record{rec("result")}}},
	}}
	got, _ := json.Marshal(o.Envelopes("claude"))
	want := `[{"sequence":1,"attempt":0,"backend":"claude","eventType":"init","event":{"type":"init"}},` +
		`{"sequence":2,"attempt":0,"backend":"claude","eventType":"result","event":{"type":"result"}},` +
		`{"sequence":3,"attempt":1,"backend":"claude","eventType":"result","event":{"type":"result"}}]`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// The Outcome's OutputError quotes what each attempt could not read, naming the
// attempt once there are several: a garbled first answer is not lost behind a
// clean retry.
func TestOutcomeOutputErrorNamesTheAttempt(t *testing.T) {
	t.Parallel()
	garbled := answer("no idea", "sess", 5)
	garbled.OutputError = `line 3 is not JSON: "{\"type\":\"assist"`
	one := &Outcome{Attempts: []Attempt{{Result: garbled}}}
	if got := one.OutputError(); got != garbled.OutputError {
		t.Errorf("one attempt: %q", got)
	}
	two := &Outcome{Attempts: []Attempt{{Result: garbled}, {Index: 1, Result: answer(`{"name":"Ada","age":36}`, "sess", 5)}}}
	if got, want := two.OutputError(), "attempts[0]: "+garbled.OutputError; got != want {
		t.Errorf("two attempts: %q, want %q", got, want)
	}
	clean := &Outcome{Attempts: []Attempt{{Result: answer("ok", "sess", 1)}}}
	if got := clean.OutputError(); got != "" {
		t.Errorf("clean: %q", got)
	}
}
