package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// TestOfficialTypeScriptClient drives the real albert-acp binary with the official
// @agentclientprotocol/sdk client (pinned in testdata/client/package-lock.json;
// `npm ci` there, as .ci/run does) against the fake model, and has every message
// the binary sends validated against the schema shipped in that package.
func TestOfficialTypeScriptClient(t *testing.T) {
	clientDir, err := filepath.Abs("testdata/client")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(clientDir, "node_modules", "@agentclientprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("the ACP TypeScript SDK is not installed in %s: run `npm ci --prefix %s` (as .ci/run does) before the tests", clientDir, clientDir)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH: install Node.js 20 or later to run the ACP interop test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	dir := t.TempDir()
	bin := filepath.Join(dir, "albert-acp")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/etalab-ia/albert-code/cmd/albert-acp")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build albert-acp: %v\n%s", err, out)
	}
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{ID: "w1", Name: "write", Arguments: `{"path":"a.txt","content":"one\n"}`}}},
		{ToolCalls: []fakemodel.ToolCall{{ID: "w2", Name: "write", Arguments: `{"path":"b.txt","content":"two\n"}`}}},
		{Text: []string{"done"}, Usage: &fakemodel.Usage{PromptTokens: 50, CompletionTokens: 5, TotalTokens: 55}},
		{Text: []string{"working"}, Hang: true},
		{Text: []string{"yes"}},
		{ToolCalls: []fakemodel.ToolCall{{ID: "m1", Name: "everything_echo", Arguments: `{"message":"through the editor's server"}`}}},
		{Text: []string{"echoed"}},
		{ToolCalls: []fakemodel.ToolCall{{ID: "q1", Name: "ask_user_question", Arguments: `{"questions":[{"question":"Which database?","header":"Database",` +
			`"options":[{"label":"SQLite","description":"one file"},{"label":"PostgreSQL","description":"a server"}]}]}`}}},
		{Text: []string{"noted"}},
	}})
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, filepath.Join(clientDir, "client.mjs"), bin, work, everythingBin(t))
	cmd.Dir = clientDir
	cmd.Env = append(os.Environ(),
		"HOME="+filepath.Join(dir, "home"), "ALBERT_CODE_HOME="+filepath.Join(dir, "home", ".albert-code"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "xdg"), "ALBERT_API_KEY=k", "ALBERT_CODE_BASE_URL="+srv.URL())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// The editor's MCP server runs in the workspace while its session is open: watch
	// for it, then check it stopped with albert-acp (the client waits for its exit).
	sawServer := false
	var runErr error
watch:
	for {
		select {
		case runErr = <-exited:
			break watch
		case <-time.After(20 * time.Millisecond):
			sawServer = sawServer || len(processesIn(work)) > 0
		}
	}
	out := stdout.Bytes()
	if runErr != nil {
		t.Fatalf("client: %v\n%s\n%s", runErr, out, stderr.Bytes())
	}
	if !sawServer {
		t.Error("no process ever ran in the workspace: the editor's MCP server was not seen")
	}
	waitFor(t, "no process left in the workspace", func() bool { return len(processesIn(work)) == 0 })
	var got struct {
		ProtocolVersion int      `json:"protocolVersion"`
		AgentName       string   `json:"agentName"`
		LoadSession     bool     `json:"loadSession"`
		AuthMethods     []string `json:"authMethods"`
		TerminalAuth    struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"terminalAuthMeta"`
		Modes  []string `json:"modes"`
		Models struct {
			Current   string   `json:"current"`
			Available []string `json:"available"`
		} `json:"models"`
		SetModel struct {
			OptionUpdate []string `json:"optionUpdate"`
			Unknown      any      `json:"unknown"`
		} `json:"setModel"`
		ToolPrompt struct {
			StopReason  string   `json:"stopReason"`
			Permissions []string `json:"permissions"`
			AExists     bool     `json:"aExists"`
			BExists     bool     `json:"bExists"`
			Statuses    []string `json:"statuses"`
			Diff        bool     `json:"diff"`
		} `json:"toolPrompt"`
		ModeUpdate     bool     `json:"modeUpdate"`
		CancelStop     string   `json:"cancelStop"`
		Listed         bool     `json:"listed"`
		Replay         []string `json:"replay"`
		LoadedMode     string   `json:"loadedMode"`
		AfterLoadStop  string   `json:"afterLoadStop"`
		LoadModeUpdate bool     `json:"loadModeUpdate"`
		MCP            struct {
			StopReason  string   `json:"stopReason"`
			Permissions []string `json:"permissions"`
			Statuses    []string `json:"statuses"`
		} `json:"mcp"`
		Question struct {
			StopReason string `json:"stopReason"`
			Asked      []struct {
				ToolCallID string   `json:"toolCallId"`
				Title      string   `json:"title"`
				Options    []string `json:"options"`
			} `json:"asked"`
		} `json:"question"`
		Validated int               `json:"validated"`
		Invalid   []json.RawMessage `json:"invalid"`
		NonJSON   []string          `json:"nonJSON"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	tp := got.ToolPrompt
	switch {
	case got.ProtocolVersion != 1 || got.AgentName != "albert-code" || !got.LoadSession:
		t.Errorf("initialize: %+v", got)
	case !slices.Equal(got.AuthMethods, []string{"terminal:setup:--setup", "agent:api-key:"}):
		t.Errorf("auth methods %v, want the terminal setup then the API key", got.AuthMethods)
	case got.TerminalAuth.Command != bin || !slices.Equal(got.TerminalAuth.Args, []string{"--setup"}):
		t.Errorf("_meta terminal-auth %+v, want %s --setup", got.TerminalAuth, bin)
	case !slices.Contains(got.Modes, "plan"):
		t.Errorf("modes %v", got.Modes)
	case got.Models.Current == "" || !slices.Contains(got.Models.Available, got.Models.Current) || !slices.Contains(got.Models.Available, "qwen"):
		t.Errorf("models field %+v", got.Models)
	case !slices.Equal(got.SetModel.OptionUpdate, []string{"qwen"}) || got.SetModel.Unknown != float64(-32602):
		t.Errorf("session/set_model: %+v, want one config_option_update naming qwen and -32602 for an unknown model", got.SetModel)
	case tp.StopReason != "end_turn" || !slices.Equal(tp.Permissions, []string{"w1", "w2"}) || !tp.AExists || tp.BExists || !tp.Diff:
		t.Errorf("tool prompt: %+v", tp)
	case !slices.Equal(tp.Statuses, []string{"w1:in_progress", "w1:completed", "w2:failed"}):
		t.Errorf("tool statuses %v", tp.Statuses)
	case !got.ModeUpdate:
		t.Error("no current_mode_update after set_mode")
	case got.CancelStop != "cancelled":
		t.Errorf("cancelled prompt stopped with %q", got.CancelStop)
	case !got.Listed:
		t.Error("session/list does not show the session")
	case !slices.Contains(got.Replay, "user_message_chunk") || !slices.Contains(got.Replay, "tool_call") || !slices.Contains(got.Replay, "agent_message_chunk"):
		t.Errorf("replay kinds %v", got.Replay)
	case got.AfterLoadStop != "end_turn":
		t.Errorf("prompt after load: %q", got.AfterLoadStop)
	case got.LoadedMode != "plan" || !got.LoadModeUpdate:
		t.Errorf("load restored mode %q (current_mode_update %v), want the session's plan", got.LoadedMode, got.LoadModeUpdate)
	case got.MCP.StopReason != "end_turn" || !slices.Equal(got.MCP.Permissions, []string{"m1"}) || !slices.Contains(got.MCP.Statuses, "m1:completed"):
		t.Errorf("the editor's MCP server: %+v", got.MCP)
	case got.Question.StopReason != "end_turn" || len(got.Question.Asked) != 1 || got.Question.Asked[0].ToolCallID != "q1" ||
		got.Question.Asked[0].Title != "Which database?" || !slices.Equal(got.Question.Asked[0].Options, []string{"SQLite", "PostgreSQL", "None of these"}):
		t.Errorf("ask_user_question: %+v", got.Question)
	}
	reqs := srv.ModelRequests()
	if len(reqs) != 9 || !strings.Contains(reqs[6].Body, "through the editor's server") || !strings.Contains(reqs[8].Body, "chose: PostgreSQL") {
		t.Errorf("%d model requests; the MCP result or the answer did not reach the model", len(reqs))
	}
	if len(got.Invalid) > 0 || len(got.NonJSON) > 0 {
		t.Errorf("%d messages fail the schema, %d lines are not JSON:\n%s\n%q", len(got.Invalid), len(got.NonJSON), got.Invalid, got.NonJSON)
	}
	if got.Validated < 20 {
		t.Errorf("only %d messages validated", got.Validated)
	}
}

// processesIn lists the pids of the processes whose working directory is dir.
func processesIn(dir string) []string {
	entries, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && cwd == dir {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
