package codex_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/clitest"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/codex"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/internal/adaptertest"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/structured"
)

// realCodex is the real Codex CLI (pinned in testdata/clis) pointed at fm, with a
// CODEX_HOME and a HOME of its own: only 127.0.0.1 is reached.
type realCodex struct {
	codex *codex.Adapter
	opts  runner.Options
	work  string
	home  string
}

// newRealCodex fails, never skips, when Node or Codex is missing: .ci/run runs
// `npm ci` in testdata/clis.
func newRealCodex(t *testing.T, fm *fakemodel.Server) *realCodex {
	t.Helper()
	bin, env, home := clitest.Codex(t, fm.URL())
	return &realCodex{codex: &codex.Adapter{Binary: bin}, work: t.TempDir(), home: home,
		opts: runner.Options{Grace: time.Second, TempParent: t.TempDir(), BaseEnv: env}}
}

// request is a run in the codex's workspace. Judgement: codex starts in about a
// second; a loaded CI machine under -race may take many times that.
func (c *realCodex) request(prompt string) backend.Request {
	return backend.Request{Prompt: prompt, Workspace: c.work, Timeout: time.Minute}
}

func (c *realCodex) run(t *testing.T, req backend.Request) (backend.Result, []backend.Event) {
	t.Helper()
	res, evs, err := adaptertest.Run(t, c.codex, req, c.opts)
	if err != nil {
		t.Fatalf("codex: %v", err)
	}
	return res, evs
}

func mustSucceed(t *testing.T, what string, res backend.Result) {
	t.Helper()
	if res.ExitCode != 0 || res.ProviderError != "" || res.OutputError != "" {
		t.Fatalf("%s: exit %d, provider error %q, output error %q\nstderr: %.2000s\nstdout: %.3000s",
			what, res.ExitCode, res.ProviderError, res.OutputError, res.Stderr, res.Stdout)
	}
}

// toolNames lists the tools a recorded Responses request offered the model.
func toolNames(r fakemodel.Recorded) []string {
	var out []string
	tools, _ := r.JSON["tools"].([]any)
	for _, tl := range tools {
		m, _ := tl.(map[string]any)
		name, _ := m["name"].(string)
		if name == "" {
			name, _ = m["type"].(string)
		}
		out = append(out, name)
	}
	return out
}

// sandboxMode is the sandbox Codex says it runs the turn in (its turn metadata header).
func sandboxMode(t *testing.T, r fakemodel.Recorded) string {
	t.Helper()
	var meta struct {
		SandboxMode string `json:"sandbox_mode"`
	}
	if err := json.Unmarshal([]byte(r.Header.Get("X-Codex-Turn-Metadata")), &meta); err != nil {
		t.Fatalf("codex sent no turn metadata: %v", err)
	}
	return meta.SandboxMode
}

// TestRealCodexSessions: the answer, the thread id and the usage come from the
// real codex's records; continue and resume by id stay in the thread, each run
// billed for its own turn only; a fresh run (noContinue) is ephemeral and reports
// no thread, since its id would resume nothing.
func TestRealCodexSessions(t *testing.T) {
	t.Parallel()
	fm := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{Reasoning: []string{"Je ", "réfléchis."}, Text: []string{"Bonjour", " depuis", " le faux modèle."},
			Usage: &fakemodel.Usage{PromptTokens: 120, CompletionTokens: 9, CachedTokens: 20, ReasoningTokens: 3}},
		{Text: []string{"Toujours", " là."}, Usage: &fakemodel.Usage{PromptTokens: 150, CompletionTokens: 4}},
		{Text: []string{"Par", " identifiant."}, Usage: &fakemodel.Usage{PromptTokens: 170, CompletionTokens: 3}},
		{Text: []string{"Tout", " neuf."}, Usage: &fakemodel.Usage{PromptTokens: 50, CompletionTokens: 2}},
	}})
	c := newRealCodex(t, fm)

	req := c.request("Dis bonjour.")
	req.Continue = true // the HTTP default; the workspace has no thread yet
	first, evs := c.run(t, req)
	mustSucceed(t, "first run", first)
	if first.Text != "Bonjour depuis le faux modèle." || adaptertest.JoinDeltas(evs) != first.Text {
		t.Errorf("text %q, deltas %q", first.Text, adaptertest.JoinDeltas(evs))
	}
	if first.SessionID == "" || evs[0].Kind != backend.EventSession || evs[0].SessionID != first.SessionID {
		t.Errorf("thread id %q, first event %+v", first.SessionID, evs[0])
	}
	want := backend.Usage{InputTokens: 120, OutputTokens: 9, CacheReadTokens: 20, ReasoningTokens: 3}
	if first.Usage != want || *adaptertest.Stop(t, evs).Usage != want {
		t.Errorf("usage %+v, want %+v (codex reports no cost)", first.Usage, want)
	}
	if !slices.ContainsFunc(evs, func(e backend.Event) bool { return e.Kind == backend.EventReasoning && e.Text == "Je réfléchis." }) {
		t.Errorf("no reasoning event in %+v", evs)
	}

	req.Prompt = "Encore ?"
	again, _ := c.run(t, req)
	mustSucceed(t, "continued run", again)
	if again.Text != "Toujours là." || again.SessionID != first.SessionID {
		t.Errorf("continued: text %q, thread %q, want the thread %q", again.Text, again.SessionID, first.SessionID)
	}
	if again.Usage != (backend.Usage{InputTokens: 150, OutputTokens: 4}) {
		t.Errorf("continued usage %+v: want this turn's only", again.Usage)
	}

	byID := c.request("Et par identifiant ?")
	byID.Resume = first.SessionID
	resumed, _ := c.run(t, byID)
	mustSucceed(t, "resumed run", resumed)
	if resumed.Text != "Par identifiant." || resumed.SessionID != first.SessionID {
		t.Errorf("resumed: text %q, thread %q", resumed.Text, resumed.SessionID)
	}

	fresh, evs := c.run(t, c.request("Repars de zéro."))
	mustSucceed(t, "fresh run", fresh)
	if fresh.Text != "Tout neuf." || fresh.SessionID != "" || slices.ContainsFunc(evs, func(e backend.Event) bool { return e.Kind == backend.EventSession }) {
		t.Errorf("fresh: text %q, thread %q: an ephemeral thread must not be reported", fresh.Text, fresh.SessionID)
	}

	reqs := fm.Requests()
	if len(reqs) != 4 {
		t.Fatalf("the fake model saw %d requests, want 4", len(reqs))
	}
	for i, r := range reqs {
		if r.Path != "/v1/responses" {
			t.Errorf("request %d went to %s", i, r.Path)
		}
	}
	for i, inThread := range []bool{false, true, true, false} {
		if got := strings.Contains(reqs[i].Body, "Bonjour depuis le faux"); got != inThread {
			t.Errorf("request %d carries the first answer: %v, want %v", i, got, inThread)
		}
	}
}

// TestRealCodexNoTools: noTools takes codex's shell and web search away
// and runs it read-only, on a fresh thread and on a resumed one alike. Before,
// the resumed run passed --sandbox, which `codex exec resume` refuses (exit 2).
func TestRealCodexNoTools(t *testing.T) {
	t.Parallel()
	fm := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{Text: []string{"un"}}, {Text: []string{"deux"}}, {Text: []string{"trois"}},
	}})
	c := newRealCodex(t, fm)
	withTools := c.request("Commence.")
	withTools.Continue = true
	first, _ := c.run(t, withTools)
	mustSucceed(t, "run with tools", first)

	continued := c.request("Sans outils.")
	continued.Continue, continued.NoTools = true, true
	res, _ := c.run(t, continued)
	mustSucceed(t, "continued run without tools", res)
	if res.Text != "deux" || res.SessionID != first.SessionID {
		t.Errorf("continued without tools: %q in %q", res.Text, res.SessionID)
	}

	fresh := c.request("Sans outils, à neuf.")
	fresh.NoTools = true
	res, _ = c.run(t, fresh)
	mustSucceed(t, "fresh run without tools", res)

	reqs := fm.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if tools := toolNames(reqs[0]); !slices.Contains(tools, "exec_command") || sandboxMode(t, reqs[0]) != "danger-full-access" {
		t.Errorf("with tools: %v in %s", tools, sandboxMode(t, reqs[0]))
	}
	for _, r := range reqs[1:] {
		tools := toolNames(r)
		for _, banned := range []string{"exec_command", "write_stdin", "web_search"} {
			if slices.Contains(tools, banned) {
				t.Errorf("turn %d without tools still offers %s: %v", r.Turn, banned, tools)
			}
		}
		if mode := sandboxMode(t, r); mode != "read-only" {
			t.Errorf("turn %d without tools runs in %q, want read-only", r.Turn, mode)
		}
	}
}

// TestRealCodexToolsAllowlistIsRefused: codex cannot name the tools it may use, so
// an allow-list is refused before codex starts, saying what to send instead.
func TestRealCodexToolsAllowlistIsRefused(t *testing.T) {
	t.Parallel()
	fm := fakemodel.NewTest(t, fakemodel.Script{})
	c := newRealCodex(t, fm)
	req := c.request("x")
	req.ToolsAllowlist = []string{"shell"}
	_, _, err := adaptertest.Run(t, c.codex, req, c.opts)
	if !errors.Is(err, backend.ErrInvalidRequest) || !strings.Contains(err.Error(), "send noTools") {
		t.Errorf("err %v", err)
	}
	if n := len(fm.Requests()); n != 0 {
		t.Errorf("codex ran: %d model requests", n)
	}
}

// TestRealCodexToolUseStreams: codex prints each item whole (no token deltas), so
// what streams is its narration (as reasoning), each command and its output, then
// the answer, which is only the message after the last tool.
func TestRealCodexToolUseStreams(t *testing.T) {
	t.Parallel()
	fm := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{Text: []string{"Je lance", " une commande."}, ToolCalls: []fakemodel.ToolCall{{Name: "exec_command",
			Arguments: `{"cmd":"echo bonjour-outil","yield_time_ms":30000}`, Fragments: 5}}},
		{Text: []string{"FINI", " après l'outil"}, Usage: &fakemodel.Usage{PromptTokens: 300, CompletionTokens: 5}},
	}})
	c := newRealCodex(t, fm)
	res, evs := c.run(t, c.request("Lance echo."))
	mustSucceed(t, "run with a tool", res)
	if res.Text != "FINI après l'outil" || adaptertest.JoinDeltas(evs) != res.Text {
		t.Errorf("text %q, deltas %q: want only the message after the tool", res.Text, adaptertest.JoinDeltas(evs))
	}
	var kinds []string
	var call, result *backend.ToolUse
	for _, e := range evs {
		kinds = append(kinds, string(e.Kind))
		switch e.Kind {
		case backend.EventToolCall:
			call = e.Tool
		case backend.EventToolResult:
			result = e.Tool
		}
	}
	if got := strings.Join(kinds, " "); got != "reasoning tool_call tool_result delta usage stop" {
		t.Errorf("events %s", got)
	}
	if call == nil || result == nil || !strings.Contains(string(call.Arguments), "echo bonjour-outil") ||
		result.Output != "bonjour-outil\n" || result.IsError {
		t.Errorf("tool call %+v, result %+v", call, result)
	}
	if res.Usage.InputTokens != 300 {
		t.Errorf("usage %+v: want both model calls of the turn", res.Usage)
	}
}

// TestRealCodexProviderErrors: on a provider refusal codex exits 1 and writes
// turn.failed; the run is a provider error with the provider's reason and kind,
// not a crash.
func TestRealCodexProviderErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		turn   fakemodel.Turn
		reason string
		kind   backend.ErrorKind
	}{
		{"400", fakemodel.OpenAIError(400, "Invalid schema for response_format: 'x' is not valid", "invalid_request_error", "invalid_json_schema"),
			"Invalid schema for response_format: 'x' is not valid (invalid_json_schema)", backend.ErrorProvider},
		{"429", fakemodel.OpenAIError(429, "Rate limit reached", "requests", "rate_limit_exceeded"), "429 Too Many Requests", backend.ErrorRateLimit},
		{"401", fakemodel.OpenAIError(401, "Incorrect API key provided", "invalid_request_error", "invalid_api_key"), "Incorrect API key provided", backend.ErrorAuth},
		{"response.failed", fakemodel.Turn{StreamFailure: &fakemodel.StreamFailure{Code: "insufficient_quota", Message: "You exceeded your current quota"}},
			"Quota exceeded", backend.ErrorRateLimit}, // codex's own words for insufficient_quota
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fm := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{tc.turn}})
			c := newRealCodex(t, fm)
			res, evs := c.run(t, c.request("x"))
			if !strings.Contains(res.ProviderError, tc.reason) || res.ErrorKind != tc.kind {
				t.Errorf("provider error %q (%s), want %q (%s)\nstdout: %.2000s", res.ProviderError, res.ErrorKind, tc.reason, tc.kind, res.Stdout)
			}
			if res.OutputError != "" {
				t.Errorf("output error %q", res.OutputError)
			}
			if s := adaptertest.Stop(t, evs); s.StopReason != "error" {
				t.Errorf("stop %+v", s)
			}
		})
	}
}

// TestRealCodexStructuredRetryAfterFreshAttempt: a schema run with noContinue
// starts ephemeral; its corrective retry restates the task in a fresh thread.
// Before, the retry resumed the ephemeral thread and codex answered "no rollout
// found for thread id" (exit 1, a 500).
func TestRealCodexStructuredRetryAfterFreshAttempt(t *testing.T) {
	t.Parallel()
	fm := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{Text: []string{"Voici : ", `{"count": "trois"}`}},
		{Text: []string{`{"count": 3}`}},
	}})
	c := newRealCodex(t, fm)
	schema, err := structured.Compile(json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}`))
	if err != nil {
		t.Fatal(err)
	}
	base := c.request("Combien de fichiers ?")
	base.JSONSchema = schema.JSON()
	attempt := func(ctx context.Context, turn structured.Turn) (backend.Result, error) {
		req := base
		req.Prompt = turn.Prompt
		if turn.Index > 0 {
			req.Continue, req.Resume = false, turn.Resume // as /run does
		}
		return runner.New(c.opts).Run(ctx, c.codex, req, nil)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	out, err := structured.Run(ctx, base.Prompt, schema, attempt, structured.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out.End != structured.Matched || string(out.Parsed.JSON) != `{"count":3}` {
		last := out.Last()
		t.Fatalf("end %s, parsed %s; last attempt exit %d: %s", out.End, out.Parsed.JSON, last.ExitCode, last.Stderr)
	}
	reqs := fm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if !strings.Contains(reqs[1].Body, "Combien de fichiers ?") {
		t.Errorf("the retry did not restate the task: %.1000s", reqs[1].Body)
	}
	format, _ := reqs[0].JSON["text"].(map[string]any)["format"].(map[string]any)
	if format["type"] != "json_schema" {
		t.Errorf("codex did not pass the schema on as text.format: %v", reqs[0].JSON["text"])
	}
}

// TestRealCodexCancelInsideTool: a run cancelled while codex runs a command (in a
// session of its own, under a PTY) leaves no process of its tree: the guardian
// takes what left the agent's process group. The command ignores SIGHUP and
// SIGTERM, as a server started with nohup does: the PTY's hang-up when codex dies
// would take a plain sleep anyway, and the test would then pass without the guardian.
func TestRealCodexCancelInsideTool(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "tool.pid")
	fm := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{Name: "exec_command",
			Arguments: fmt.Sprintf(`{"cmd":"trap '' HUP TERM; echo $$ > %s; exec sleep 300","yield_time_ms":300000}`, pidFile)}}},
		{Hang: true}, // codex may report a long command to the model while it runs
	}})
	c := newRealCodex(t, fm)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	done := make(chan backend.Result, 1)
	go func() {
		res, _ := runner.New(c.opts).Run(ctx, c.codex, c.request("Dors."), nil)
		done <- res
	}()
	pid := 0
	for pid == 0 {
		if data, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(data), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
			break
		}
		select {
		case res := <-done:
			t.Fatalf("codex ended before its tool started: exit %d\nstderr: %.2000s\nstdout: %.2000s", res.ExitCode, res.Stderr, res.Stdout)
		case <-ctx.Done():
			t.Fatal("the tool never started")
		case <-time.After(50 * time.Millisecond):
		}
	}
	cancel()
	res := <-done
	if res.Stopped != "cancelled" {
		t.Errorf("stopped %q, want cancelled", res.Stopped)
	}
	// The guardian kills before the run returns; a moment for the kernel to reap.
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil && !adaptertest.Zombie(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("codex's tool (pid %d, sleep 300) outlived the cancelled run", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
