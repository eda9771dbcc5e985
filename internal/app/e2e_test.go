package app

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

func TestMultiTurnToolSession(t *testing.T) {
	t.Parallel()
	h := newHarness(t,
		calls(
			fakemodel.ToolCall{ID: "r1", Name: "read", Arguments: args(map[string]any{"path": "notes.txt"}), Fragments: 5},
			fakemodel.ToolCall{ID: "g1", Name: "grep", Arguments: args(map[string]any{"pattern": "beta"})},
		),
		calls(fakemodel.ToolCall{ID: "e1", Name: "edit", Arguments: args(map[string]any{"path": "notes.txt", "old_string": "beta", "new_string": "gamma"})}),
		calls(fakemodel.ToolCall{ID: "b1", Name: "bash", Arguments: args(map[string]any{"command": "cat notes.txt"})}),
		text("Replaced beta with gamma."),
	)
	h.writeFile("notes.txt", "alpha\nbeta\n")
	r := h.run("-p", "--trust", "--agent", "auto-approve", "--output", "json", "replace beta with gamma")
	if r.code != ExitOK {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	s := h.summary(r)
	if s.Text != "Replaced beta with gamma." || s.StopReason != "end_turn" || s.Turns != 4 ||
		s.Usage.InputTokens != 400 || s.Usage.OutputTokens != 40 || s.SessionID == "" {
		t.Fatalf("summary = %+v", s)
	}
	got, err := os.ReadFile(filepath.Join(h.work, "notes.txt"))
	if err != nil || string(got) != "alpha\ngamma\n" {
		t.Fatalf("notes.txt = %q, %v", got, err)
	}
	if res := h.toolResult(1, "r1"); !strings.Contains(res, "beta") {
		t.Errorf("read result = %q", res)
	}
	if res := h.toolResult(1, "g1"); !strings.Contains(res, "notes.txt:2") {
		t.Errorf("grep result = %q", res)
	}
	if res := h.toolResult(3, "b1"); !strings.Contains(res, "gamma") {
		t.Errorf("bash result = %q", res)
	}
	first := h.srv.Requests()[0]
	if first.Header.Get("Authorization") != "Bearer test-key" || first.Header.Get("X-Affinity") != s.SessionID {
		t.Errorf("headers: auth %q affinity %q", first.Header.Get("Authorization"), first.Header.Get("X-Affinity"))
	}
	opts, _ := first.JSON["stream_options"].(map[string]any)
	if first.JSON["stream"] != true || opts["include_usage"] != true {
		t.Errorf("request did not ask for a stream with usage: %v", first.JSON)
	}
	if msgs := h.requestMessages(0); msgs[0]["role"] != "system" || msgs[1]["content"] != "replace beta with gamma" {
		t.Errorf("first request messages = %v", msgs)
	}
}

func TestStreamJSONEmitsEventsThenResult(t *testing.T) {
	t.Parallel()
	h := newHarness(t,
		calls(fakemodel.ToolCall{ID: "c1", Name: "glob", Arguments: args(map[string]any{"pattern": "*.go"})}),
		fakemodel.Turn{Reasoning: []string{"thinking"}, Text: []string{"Fou", "nd it."}},
	)
	h.writeFile("main.go", "package main\n")
	r := h.run("-p", "--output", "stream-json", "find go files")
	if r.code != ExitOK {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	var types []string
	var last map[string]any
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	for sc.Scan() {
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		types = append(types, last["type"].(string))
	}
	joined := strings.Join(types, ",")
	for _, want := range []string{"tool_call_start", "tool_call_result", "usage", "reasoning_delta", "text_delta"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %s event in %s", want, joined)
		}
	}
	if last["type"] != "result" || last["text"] != "Found it." || last["stop_reason"] != "end_turn" {
		t.Fatalf("last line = %v", last)
	}
}

func TestPromptFromStdinWithoutTTY(t *testing.T) {
	t.Parallel()
	h := newHarness(t, text("hello from stdin"))
	cmd := h.command(t.Context(), "-p")
	cmd.Stdin = strings.NewReader("say hello\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v", err)
	}
	if strings.TrimSpace(string(out)) != "hello from stdin" {
		t.Fatalf("stdout = %q", out)
	}
	if msgs := h.requestMessages(0); msgs[len(msgs)-1]["content"] != "say hello" {
		t.Fatalf("prompt sent = %v", msgs[len(msgs)-1])
	}
	if _, err := os.Stat(filepath.Join(h.home, "logs", "albert-code.log")); err != nil {
		t.Fatalf("no log file: %v", err)
	}
}

func TestModelMistakesAreReturnedAndTheLoopGoesOn(t *testing.T) {
	t.Parallel()
	h := newHarness(t,
		calls(
			fakemodel.ToolCall{ID: "u1", Name: "teleport", Arguments: `{}`},
			fakemodel.ToolCall{ID: "j1", Name: "read", Arguments: `{"path": "a.txt"`},
			fakemodel.ToolCall{ID: "x1", Name: "read", Arguments: args(map[string]any{"path": "blob.bin"})},
			fakemodel.ToolCall{ID: "m1", Name: "edit", Arguments: args(map[string]any{"path": "a.txt", "old_string": "nope", "new_string": "x"})},
		),
		text("I adapted."),
	)
	h.writeFile("a.txt", "content\n")
	h.writeFile("blob.bin", "\x00\x01\x02binary")
	r := h.run("-p", "--trust", "--agent", "auto-approve", "--output", "json", "go")
	if r.code != ExitOK || h.summary(r).Text != "I adapted." {
		t.Fatalf("exit %d stdout %s stderr %s", r.code, r.stdout, r.stderr)
	}
	for id, want := range map[string]string{"u1": "unknown tool", "j1": "not valid json", "x1": "binary", "m1": "not found"} {
		if res := h.toolResult(1, id); !strings.Contains(strings.ToLower(res), want) {
			t.Errorf("result for %s = %q, want it to mention %q", id, res, want)
		}
	}
}

func TestHugeToolOutputIsCapped(t *testing.T) {
	t.Parallel()
	h := newHarness(t,
		calls(fakemodel.ToolCall{ID: "b1", Name: "bash", Arguments: args(map[string]any{"command": "head -c 3000000 /dev/zero | tr '\\0' x"})}),
		text("ok"),
	)
	r := h.run("-p", "--trust", "--agent", "auto-approve", "go")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	res := h.toolResult(1, "b1")
	if len(res) > 40000 || !strings.Contains(res, "truncated") {
		t.Fatalf("tool result of %d bytes, marker present: %v", len(res), strings.Contains(res, "truncated"))
	}
}

func TestHeadlessAskIsRefusedNotHung(t *testing.T) {
	t.Parallel()
	h := newHarness(t,
		calls(fakemodel.ToolCall{ID: "w1", Name: "write", Arguments: args(map[string]any{"path": "x.txt", "content": "hi"})}),
		text("could not write"),
	)
	r := h.run("-p", "--trust", "--output", "json", "write x")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if res := h.toolResult(1, "w1"); !strings.Contains(res, "no one can approve") {
		t.Fatalf("write result = %q", res)
	}
	if _, err := os.Stat(filepath.Join(h.work, "x.txt")); !os.IsNotExist(err) {
		t.Fatalf("x.txt was written without approval (stat err %v)", err)
	}
}

func TestUntrustedFolderRefusesWrites(t *testing.T) {
	t.Parallel()
	h := newHarness(t,
		calls(fakemodel.ToolCall{ID: "w1", Name: "write", Arguments: args(map[string]any{"path": "x.txt", "content": "hi"})}),
		text("refused"),
	)
	r := h.run("-p", "--agent", "auto-approve", "write x")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if res := h.toolResult(1, "w1"); !strings.Contains(res, "not trusted") {
		t.Fatalf("write result = %q", res)
	}
	// Trusting the folder once makes the next run allowed.
	if r := h.run("trust"); r.code != ExitOK || !strings.Contains(r.stdout, "trusted") {
		t.Fatalf("trust: %+v", r)
	}
	data, err := os.ReadFile(filepath.Join(h.home, "trusted_folders.toml"))
	if err != nil || !strings.Contains(string(data), h.work) {
		t.Fatalf("trusted_folders.toml = %q, %v", data, err)
	}
}

func TestEnabledToolsRestrictsWhatTheModelSees(t *testing.T) {
	t.Parallel()
	h := newHarness(t, text("ok"))
	if r := h.run("-p", "--enabled-tools", "re:(read|gr.p)", "go"); r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	tools, _ := h.srv.Requests()[0].JSON["tools"].([]any)
	var names []string
	for _, tl := range tools {
		names = append(names, tl.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	if strings.Join(names, ",") != "grep,read" {
		t.Fatalf("tools offered = %v", names)
	}
}

func TestPlanProfileOffersOnlyReadOnlyTools(t *testing.T) {
	t.Parallel()
	h := newHarness(t, text("plan"))
	if r := h.run("-p", "--agent", "plan", "go"); r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	tools, _ := h.srv.Requests()[0].JSON["tools"].([]any)
	for _, tl := range tools {
		name := tl.(map[string]any)["function"].(map[string]any)["name"].(string)
		if name == "bash" || name == "write" || name == "edit" {
			t.Errorf("plan profile offers %s", name)
		}
	}
	msgs := h.requestMessages(0)
	if last := msgs[len(msgs)-1]["content"].(string); !strings.Contains(last, "plan mode") {
		t.Errorf("no read-only reminder before the first call: %q", last)
	}
}

func TestTaskRunsASubAgentWithReadOnlyTools(t *testing.T) {
	t.Parallel()
	h := newHarness(t,
		calls(fakemodel.ToolCall{ID: "t1", Name: "task", Arguments: args(map[string]any{
			"description": "find main", "prompt": "Where is func main?"})}),
		fakemodel.Turn{Text: []string{"main is in cmd/main.go"}, Usage: &fakemodel.Usage{PromptTokens: 50, CompletionTokens: 5}},
		text("The sub-agent says cmd/main.go."),
	)
	r := h.run("-p", "--trust", "--agent", "auto-approve", "--output", "json", "where is main?")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	s := h.summary(r)
	if s.Usage.InputTokens != 250 {
		t.Errorf("sub-agent usage did not roll up: %+v", s.Usage)
	}
	child := h.srv.Requests()[1]
	tools, _ := child.JSON["tools"].([]any)
	for _, tl := range tools {
		name := tl.(map[string]any)["function"].(map[string]any)["name"].(string)
		if name != "read" && name != "grep" && name != "glob" {
			t.Errorf("sub-agent was offered %s", name)
		}
	}
	msgs := h.requestMessages(1)
	if msgs[len(msgs)-1]["content"] != "Where is func main?" {
		t.Errorf("sub-agent prompt = %v", msgs[len(msgs)-1])
	}
	if res := h.toolResult(2, "t1"); !strings.Contains(res, "cmd/main.go") {
		t.Errorf("task result = %q", res)
	}
	// The sub-agent's trace is a child session, hidden from the plain list.
	if list := h.run("sessions", "list"); strings.Count(list.stdout, "\n") != 2 {
		t.Errorf("sessions list shows the sub-agent:\n%s", list.stdout)
	}
	list := h.run("sessions", "list", "--all", "--json")
	if !strings.Contains(list.stdout, `"parent_id": "`+s.SessionID+`"`) {
		t.Errorf("no child session with parent %s:\n%s", s.SessionID, list.stdout)
	}
}

func TestXMLToolCallsInTextAreRecovered(t *testing.T) {
	t.Parallel()
	h := newHarness(t,
		fakemodel.Turn{Text: []string{"Let me look.<tool_", "call>\n<function=read>\n<parameter=pa", "th>\nnotes.txt\n</parameter>\n</function>\n</tool_call>"}},
		text("It says hello."),
	)
	h.writeFile("notes.txt", "hello\n")
	r := h.run("-p", "--output", "stream-json", "read notes")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "<function") {
		t.Errorf("XML leaked into the text events:\n%s", r.stdout)
	}
	msgs := h.requestMessages(1)
	var result string
	for _, m := range msgs {
		if m["role"] == "tool" {
			result, _ = m["content"].(string)
		}
	}
	if !strings.Contains(result, "hello") {
		t.Fatalf("no read result for the recovered call in %v", msgs)
	}
}

func TestUserProfileFromHome(t *testing.T) {
	t.Parallel()
	h := newHarness(t, text("reviewed"))
	h.writeHomeFile("agents/reviewer.toml", `extends = "plan"
description = "Reviews the current diff"
allowed_tools = ["read", "grep"]
system_prompt = "Review the uncommitted changes and list problems by severity."
model = "deepseek-flash"
`)
	r := h.run("-p", "--agent", "reviewer", "review")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	req := h.srv.Requests()[0]
	if req.JSON["model"] != "deepseek-ai/DeepSeek-V4-Flash" {
		t.Errorf("profile model not used: %v", req.JSON["model"])
	}
	tools, _ := req.JSON["tools"].([]any)
	if len(tools) != 2 {
		t.Errorf("profile offers %d tools, want read and grep", len(tools))
	}
	if sys := h.requestMessages(0)[0]["content"].(string); !strings.Contains(sys, "list problems by severity") {
		t.Errorf("system prompt lacks the profile's addition:\n%s", sys)
	}
}

func TestKeyFromDotEnvAndEnvironmentWins(t *testing.T) {
	t.Parallel()
	h := newHarness(t, text("one"), text("two"))
	h.writeHomeFile(".env", "# secrets\nexport ALBERT_API_KEY=\"from-dotenv\"\n")
	h.env = append(h.env, "ALBERT_API_KEY=")
	if r := h.run("-p", "hi"); r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	h.env = append(h.env, "ALBERT_API_KEY=from-env")
	if r := h.run("-p", "hi"); r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	reqs := h.srv.Requests()
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer from-dotenv" {
		t.Errorf("key from .env: Authorization = %q", got)
	}
	if got := reqs[1].Header.Get("Authorization"); got != "Bearer from-env" {
		t.Errorf("the environment must win over .env: Authorization = %q", got)
	}
}

// A -p prompt naming a file with @path sends the file with it, as the UI does.
func TestHeadlessPromptSendsTheFilesItNames(t *testing.T) {
	t.Parallel()
	h := newHarness(t, text("read it"))
	h.writeFile("notes.txt", "the marker is 42\n")
	r := h.run("-p", "what does @notes.txt say?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	msgs := h.requestMessages(0)
	want := "what does @notes.txt say?\n\nContents of notes.txt:\n```\nthe marker is 42\n```"
	if got := msgs[len(msgs)-1]["content"]; got != want {
		t.Fatalf("prompt sent = %q, want %q", got, want)
	}
}
