package acp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	}})
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, filepath.Join(clientDir, "client.mjs"), bin, work)
	cmd.Dir = clientDir
	cmd.Env = append(os.Environ(),
		"HOME="+filepath.Join(dir, "home"), "ALBERT_CODE_HOME="+filepath.Join(dir, "home", ".albert-code"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "xdg"), "ALBERT_API_KEY=k", "ALBERT_CODE_BASE_URL="+srv.URL())
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("client: %v\n%s\n%s", err, out, stderr)
	}
	var got struct {
		ProtocolVersion int      `json:"protocolVersion"`
		AgentName       string   `json:"agentName"`
		LoadSession     bool     `json:"loadSession"`
		Modes           []string `json:"modes"`
		ToolPrompt      struct {
			StopReason  string   `json:"stopReason"`
			Permissions []string `json:"permissions"`
			AExists     bool     `json:"aExists"`
			BExists     bool     `json:"bExists"`
			Statuses    []string `json:"statuses"`
			Diff        bool     `json:"diff"`
		} `json:"toolPrompt"`
		ModeUpdate    bool              `json:"modeUpdate"`
		CancelStop    string            `json:"cancelStop"`
		Listed        bool              `json:"listed"`
		Replay        []string          `json:"replay"`
		LoadedMode    string            `json:"loadedMode"`
		AfterLoadStop string            `json:"afterLoadStop"`
		Validated     int               `json:"validated"`
		Invalid       []json.RawMessage `json:"invalid"`
		NonJSON       []string          `json:"nonJSON"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	tp := got.ToolPrompt
	switch {
	case got.ProtocolVersion != 1 || got.AgentName != "albert-code" || !got.LoadSession:
		t.Errorf("initialize: %+v", got)
	case !slices.Contains(got.Modes, "plan"):
		t.Errorf("modes %v", got.Modes)
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
	}
	if len(got.Invalid) > 0 || len(got.NonJSON) > 0 {
		t.Errorf("%d messages fail the schema, %d lines are not JSON:\n%s\n%q", len(got.Invalid), len(got.NonJSON), got.Invalid, got.NonJSON)
	}
	if got.Validated < 20 {
		t.Errorf("only %d messages validated", got.Validated)
	}
}
