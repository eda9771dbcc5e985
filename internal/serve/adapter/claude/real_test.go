package claude_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/internal/adaptertest"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/structured"
)

// The real Claude Code (pinned in testdata/clis/package-lock.json, installed by
// .ci/run) runs through the claude adapter and the runner against the fake model
// server on 127.0.0.1, which speaks Anthropic Messages. The tests fail, never
// skip, when it is missing.

// claudeRunTimeout bounds one run. Judgement: Claude Code starts in about a
// second here; a loaded CI machine under -race may take ten times that.
const claudeRunTimeout = time.Minute

// realClaude is one test's Claude Code: its own fake model, HOME and workspace.
type realClaude struct {
	t      *testing.T
	fm     *fakemodel.Server
	home   string
	work   string
	claude *claude.Adapter
	opts   runner.Options
}

func newRealClaude(t *testing.T, turns ...fakemodel.Turn) *realClaude {
	t.Helper()
	bin, _ := filepath.Abs("../testdata/clis/node_modules/.bin/claude")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("Claude Code is not installed: run `npm ci --prefix internal/serve/adapter/testdata/clis` (%v)", err)
	}
	fm := fakemodel.NewTest(t, fakemodel.Script{Turns: turns})
	rc := &realClaude{t: t, fm: fm, home: t.TempDir(), work: t.TempDir()}
	// Sandboxed: these machines run the tests as root, where Claude Code grants
	// every permission only with IS_SANDBOX=1, which the adapter then sets.
	rc.claude = &claude.Adapter{Binary: bin, Sandboxed: true}
	// A fresh HOME and nothing else of ours: only 127.0.0.1 is reached.
	rc.opts = runner.Options{Grace: time.Second, TempParent: t.TempDir(), BaseEnv: []string{
		"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + rc.home, "LANG=C.UTF-8",
		"CLAUDE_CONFIG_DIR=" + filepath.Join(rc.home, ".claude"),
		"ANTHROPIC_BASE_URL=" + fm.AnthropicURL(), "ANTHROPIC_API_KEY=fake",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
	}}
	return rc
}

func (rc *realClaude) request(prompt string) backend.Request {
	return backend.Request{Prompt: prompt, Workspace: rc.work, Timeout: claudeRunTimeout}
}

// run runs req and fails the test unless Claude Code exited 0 and every line it
// printed was read (a record type the adapter does not know is reported).
func (rc *realClaude) run(req backend.Request) (backend.Result, []backend.Event) {
	rc.t.Helper()
	res, evs, err := rc.runAny(rc.t.Context(), req)
	if err != nil || res.ExitCode != 0 || res.OutputError != "" {
		rc.t.Fatalf("claude: %v, exit %d, output error %q\nstderr: %s\nstdout: %.3000s", err, res.ExitCode, res.OutputError, res.Stderr, res.Stdout)
	}
	return res, evs
}

func (rc *realClaude) runAny(ctx context.Context, req backend.Request) (backend.Result, []backend.Event, error) {
	ctx, cancel := context.WithTimeout(ctx, claudeRunTimeout+10*time.Second)
	defer cancel()
	var evs []backend.Event
	res, err := runner.New(rc.opts).Run(ctx, rc.claude, req, func(e backend.Event) { evs = append(evs, e) })
	return res, evs, err
}

// toolNames lists the tools the model was offered in request i.
func (rc *realClaude) toolNames(i int) []string {
	rc.t.Helper()
	reqs := rc.fm.Requests()
	if i >= len(reqs) {
		rc.t.Fatalf("the fake model saw %d requests, want at least %d", len(reqs), i+1)
	}
	var body struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(reqs[i].Body), &body); err != nil {
		rc.t.Fatalf("request %d: %v", i, err)
	}
	var names []string
	for _, tl := range body.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func bashCall(id, command string) fakemodel.ToolCall {
	return fakemodel.ToolCall{ID: id, Name: "Bash", Arguments: `{"command":` + strings.TrimSpace(mustJSON(command)) + `,"description":"run it"}`}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func kinds(evs []backend.Event) []backend.EventKind {
	var out []backend.EventKind
	for _, e := range evs {
		out = append(out, e.Kind)
	}
	return out
}

// TestRealClaudeAnswersAfterATool: the answer, its streamed deltas, the session id
// and the usage come from Claude Code's own records; the narration before the
// tool call is no part of the answer; the tool really ran.
func TestRealClaudeAnswersAfterATool(t *testing.T) {
	t.Parallel()
	rc := newRealClaude(t,
		fakemodel.Turn{Text: []string{"Running ", "a command."}, ToolCalls: []fakemodel.ToolCall{bashCall("toolu_1", "echo hi > out.txt")},
			Usage: &fakemodel.Usage{PromptTokens: 100, CompletionTokens: 10}},
		fakemodel.Turn{Text: []string{"DONE ", "after ", "tool"}, Usage: &fakemodel.Usage{PromptTokens: 200, CompletionTokens: 5}},
	)
	req := rc.request("Write hi to out.txt.")
	req.StreamTokens = true
	res, evs := rc.run(req)
	if res.Text != "DONE after tool" {
		t.Errorf("text %q, want the final answer alone", res.Text)
	}
	if got := adaptertest.JoinDeltas(evs); got != res.Text || len(slices.DeleteFunc(kinds(evs), func(k backend.EventKind) bool { return k != backend.EventDelta })) != 3 {
		t.Errorf("streamed %q in events %v, want the answer's three pieces", got, kinds(evs))
	}
	if res.SessionID == "" || evs[0].Kind != backend.EventSession || evs[0].SessionID != res.SessionID {
		t.Errorf("session %q, first event %+v", res.SessionID, evs[0])
	}
	if u := res.Usage; u.InputTokens != 300 || u.OutputTokens != 15 || u.Cost <= 0 || u.Currency != "USD" {
		t.Errorf("usage %+v, want 300 in, 15 out and a cost", u)
	}
	if data, err := os.ReadFile(filepath.Join(rc.work, "out.txt")); err != nil || string(data) != "hi\n" {
		t.Errorf("the Bash call did not run in the workspace: %q, %v", data, err)
	}
	i := slices.IndexFunc(evs, func(e backend.Event) bool { return e.Kind == backend.EventToolCall })
	if i < 0 || evs[i].Tool.Name != "Bash" || !strings.Contains(string(evs[i].Tool.Arguments), "out.txt") {
		t.Errorf("no Bash tool call event in %v", kinds(evs))
	}
	if st := adaptertest.Stop(t, evs); st.StopReason != "end_turn" || st.Usage.InputTokens != 300 {
		t.Errorf("stop %+v", st)
	}
	if reqs := rc.fm.Requests(); len(reqs) != 2 || !strings.HasPrefix(reqs[0].Path, "/v1/messages") {
		t.Errorf("the fake model saw %d requests: %+v", len(reqs), reqs)
	}
}

// TestRealClaudeSessions: continue, resume by id and a fresh session; a continued
// run is billed for itself, not for the session so far.
func TestRealClaudeSessions(t *testing.T) {
	t.Parallel()
	same := &fakemodel.Usage{PromptTokens: 1000, CompletionTokens: 50}
	rc := newRealClaude(t,
		fakemodel.Turn{Text: []string{"answer-one"}, Usage: same},
		fakemodel.Turn{Text: []string{"answer-two"}, Usage: same},
		fakemodel.Turn{Text: []string{"answer-three"}, Usage: same},
		fakemodel.Turn{Text: []string{"answer-fresh"}, Usage: same},
	)
	first, _ := rc.run(rc.request("One."))

	req := rc.request("Two.")
	req.Continue = true
	second, _ := rc.run(req)
	if second.Text != "answer-two" || second.SessionID != first.SessionID {
		t.Errorf("continued: %q in session %q, want session %q", second.Text, second.SessionID, first.SessionID)
	}
	// Same tokens on the same model: the same price, where the session's running
	// total (what the CLI prints as total_cost_usd) is twice it.
	if second.Usage.Cost != first.Usage.Cost || first.Usage.Cost <= 0 {
		t.Errorf("continued run cost %v, first run %v: want equal", second.Usage.Cost, first.Usage.Cost)
	}
	if !strings.Contains(second.Stdout, `"total_cost_usd":`+mustJSON(2*first.Usage.Cost)) {
		t.Errorf("the CLI's running total is not twice the first run: the test no longer shows the difference\n%.2000s", second.Stdout)
	}

	req = rc.request("Three.")
	req.Resume = first.SessionID
	third, _ := rc.run(req)
	if third.Text != "answer-three" || third.SessionID != first.SessionID {
		t.Errorf("resumed: %q in session %q", third.Text, third.SessionID)
	}

	fresh, _ := rc.run(rc.request("Four.")) // noContinue: neither Continue nor Resume
	if fresh.Text != "answer-fresh" || fresh.SessionID == first.SessionID || fresh.SessionID == "" {
		t.Errorf("fresh: %q in session %q", fresh.Text, fresh.SessionID)
	}
	reqs := rc.fm.Requests()
	if len(reqs) != 4 {
		t.Fatalf("the fake model saw %d requests", len(reqs))
	}
	for i, want := range []string{"answer-one", "answer-two"} {
		if !strings.Contains(reqs[i+1].Body, want) {
			t.Errorf("request %d does not carry the earlier answer %q", i+1, want)
		}
	}
	if strings.Contains(reqs[3].Body, "answer-one") {
		t.Errorf("the fresh run carried the old session")
	}
}

// TestRealClaudeTools: noTools offers the model no tool; an allow-list offers
// those tools only (the old --allowedTools / --disallowedTools offered all).
func TestRealClaudeTools(t *testing.T) {
	t.Parallel()
	rc := newRealClaude(t, fakemodel.Turn{Text: []string{"a"}}, fakemodel.Turn{Text: []string{"b"}})
	req := rc.request("No tools.")
	req.NoTools = true
	rc.run(req)
	if names := rc.toolNames(0); len(names) != 0 {
		t.Errorf("noTools: the model was offered %v", names)
	}
	req = rc.request("Read only.")
	req.ToolsAllowlist = []string{"Read", "Grep"}
	rc.run(req)
	names := rc.toolNames(1)
	if !slices.Contains(names, "Read") || !slices.Contains(names, "Grep") || slices.Contains(names, "Bash") || slices.Contains(names, "Write") {
		t.Errorf("allow-list Read, Grep: the model was offered %v", names)
	}
}

// TestRealClaudeProviderError: on a provider 400 Claude Code exits 1 and says why
// in its result record; the run carries the reason as a provider error.
func TestRealClaudeProviderError(t *testing.T) {
	t.Parallel()
	rc := newRealClaude(t, fakemodel.AnthropicError(400, "invalid_request_error", "Output blocked by content filtering policy"))
	res, evs, err := rc.runAny(t.Context(), rc.request("Hi."))
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 1 {
		t.Errorf("exit %d: Claude Code 2.1.328 exits 1 on a provider error", res.ExitCode)
	}
	if !strings.Contains(res.ProviderError, "Output blocked by content filtering policy") || res.ErrorKind != backend.ErrorProvider || res.Text != "" {
		t.Errorf("provider error %q kind %q text %q", res.ProviderError, res.ErrorKind, res.Text)
	}
	i := slices.IndexFunc(evs, func(e backend.Event) bool {
		return e.Kind == backend.EventError && e.ErrorKind == backend.ErrorProvider
	})
	if i < 0 {
		t.Errorf("no provider error event in %+v", evs)
	}
	if st := adaptertest.Stop(t, evs); st.StopReason != "error" {
		t.Errorf("stop %+v", st)
	}
}

// TestRealClaudeAsRootNeedsTheSandboxSwitch shows why serve refuses claude as root
// outside a sandbox: without IS_SANDBOX, Claude Code refuses to run as root.
func TestRealClaudeAsRootNeedsTheSandboxSwitch(t *testing.T) {
	t.Parallel()
	rc := newRealClaude(t, fakemodel.Turn{Text: []string{"ok"}})
	rc.claude.Sandboxed = false
	res, _, err := rc.runAny(t.Context(), rc.request("Hi."))
	if err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		if res.ExitCode != 0 || res.Text != "ok" {
			t.Errorf("as a user: exit %d, text %q, stderr %s", res.ExitCode, res.Text, res.Stderr)
		}
		return
	}
	if res.ExitCode == 0 || !strings.Contains(res.Stderr, "cannot be used with root/sudo privileges") {
		t.Errorf("as root without IS_SANDBOX: exit %d, stderr %q; Claude Code used to refuse", res.ExitCode, res.Stderr)
	}
	if err := rc.claude.CheckRoot(); err == nil {
		t.Error("CheckRoot let root run claude outside a sandbox")
	}
}

// TestRealClaudeStructuredRetries: Claude Code enforces the schema with its
// StructuredOutput tool; when the model still answers prose, serve's corrective
// prompt resumes the session, and the second attempt's structured output is the
// answer. Each attempt is billed for itself.
func TestRealClaudeStructuredRetries(t *testing.T) {
	t.Parallel()
	u := &fakemodel.Usage{PromptTokens: 500, CompletionTokens: 20}
	rc := newRealClaude(t,
		// Attempt 1: prose, then prose again after Claude Code's own reminder.
		fakemodel.Turn{Text: []string{"forty-two"}, Usage: u},
		fakemodel.Turn{Text: []string{"still prose"}, Usage: u},
		// Attempt 2, in the same session: the tool call with a valid value.
		fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{Name: "StructuredOutput", Arguments: `{"answer":42}`}}, Usage: u},
	)
	raw := json.RawMessage(`{"type":"object","properties":{"answer":{"type":"integer"}},"required":["answer"]}`)
	schema, err := structured.Compile(raw)
	if err != nil {
		t.Fatal(err)
	}
	base := rc.request("What is the answer?")
	base.JSONSchema = raw
	o, err := structured.Run(t.Context(), base.Prompt, schema, func(ctx context.Context, turn structured.Turn) (backend.Result, error) {
		req := base
		req.Prompt, req.Resume = turn.Prompt, turn.Resume
		res, _, err := rc.runAny(ctx, req)
		return res, err
	}, structured.Options{})
	if err != nil || o.End != structured.Matched {
		t.Fatalf("end %s, err %v, attempts %+v", o.End, err, o.Attempts)
	}
	if len(o.Attempts) != 2 || string(o.Parsed.JSON) != `{"answer":42}` {
		t.Fatalf("%d attempts, parsed %s", len(o.Attempts), o.Parsed.JSON)
	}
	a1, a2 := o.Attempts[0].Result, o.Attempts[1].Result
	if a1.Text != "still prose" || a2.SessionID != a1.SessionID {
		t.Errorf("attempt 1 %q in %q, attempt 2 in %q: want the retry in the same session", a1.Text, a1.SessionID, a2.SessionID)
	}
	// Attempt 1 made two model calls and attempt 2 one, at the same price each.
	if c1, c2 := a1.Usage.Cost, a2.Usage.Cost; c1 <= 0 || !near(c1, 2*c2) || !near(o.Usage.Cost, 3*c2) {
		t.Errorf("costs: attempt 1 %v, attempt 2 %v, total %v; want 2:1 and their sum", c1, c2, o.Usage.Cost)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestRealClaudeCancelInsideATool: a run cancelled while its Bash call sleeps
// leaves no process of its tree: Claude Code, its shell, the sleep.
func TestRealClaudeCancelInsideATool(t *testing.T) {
	t.Parallel()
	// A duration no other process has; "echo &&" because Claude Code refuses a
	// standalone sleep.
	sleep := fmt.Sprintf("sleep 300.%d", time.Now().UnixNano()%1_000_000)
	rc := newRealClaude(t, fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{bashCall("toolu_sleep", "echo started && "+sleep)}})
	marker := "ALBERT_CODE_TEST_RUN=" + rc.home // Claude Code and what it starts with our environment
	rc.opts.BaseEnv = append(rc.opts.BaseEnv, marker)
	ofRun := func() []string {
		return append(processesWhere(func(_, cmd string) bool { return cmd == sleep }),
			processesWhere(func(env, _ string) bool { return slices.Contains(strings.Split(env, "\x00"), marker) })...)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan backend.Result, 1)
	go func() {
		res, _, _ := rc.runAny(ctx, rc.request("Sleep."))
		done <- res
	}()
	deadline := time.Now().Add(claudeRunTimeout)
	for len(processesWhere(func(_, cmd string) bool { return cmd == sleep })) == 0 {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("the Bash call never started; the run's processes: %q", ofRun())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	select {
	case res := <-done:
		if res.Stopped != "cancelled" {
			t.Errorf("stopped %q, want cancelled", res.Stopped)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the cancelled run did not return")
	}
	for deadline := time.Now().Add(10 * time.Second); len(ofRun()) > 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("processes of the cancelled run remain: %q", ofRun())
		}
	}
}

// processesWhere lists the command lines of the live processes for which match,
// given their environment and command line, holds (zombies have neither).
func processesWhere(match func(env, cmd string) bool) []string {
	var out []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if err != nil {
			continue
		}
		raw, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		cmd := strings.TrimSpace(strings.ReplaceAll(string(raw), "\x00", " "))
		if match(string(env), cmd) {
			out = append(out, d.Name()+": "+cmd)
		}
	}
	return out
}
