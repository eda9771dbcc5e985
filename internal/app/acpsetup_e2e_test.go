package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// acpExchange sends lines to `albert-code acp` and returns its answers by request id.
func (h *harness) acpExchange(lines ...string) map[float64]map[string]any {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := h.command(ctx, "acp")
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	res := runToEnd(h.t, ctx, cmd, []string{"acp"})
	if res.code != 0 {
		h.t.Fatalf("albert-code acp: exit %d\n%s", res.code, res.stderr)
	}
	answers := map[float64]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			h.t.Fatalf("a stdout line is not JSON: %q", line)
		}
		if id, ok := m["id"].(float64); ok {
			answers[id] = m
		}
	}
	return answers
}

func rpcErrorCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return code
}

// An editor user without a key: initialize offers the setup as terminal
// authentication, `acp --setup` in a terminal runs the setup screen and saves the
// key, and then authenticate and session/new succeed on the same configuration.
func TestACPSetupInATerminalAuthenticatesTheEditor(t *testing.T) {
	h := newHarness(t)
	h.env = withoutVar(h.env, "ALBERT_API_KEY")
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,` +
		`"clientCapabilities":{"auth":{"terminal":true},"_meta":{"terminal-auth":true}}}}`
	authenticate := `{"jsonrpc":"2.0","id":2,"method":"authenticate","params":{"methodId":"setup"}}`
	newSession, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "session/new",
		"params": map[string]any{"cwd": h.work, "mcpServers": []any{}}})

	before := h.acpExchange(initialize, authenticate, string(newSession))
	result, _ := before[1]["result"].(map[string]any)
	methods, _ := result["authMethods"].([]any)
	if len(methods) == 0 {
		t.Fatalf("initialize: %v", before[1])
	}
	setup, _ := methods[0].(map[string]any)
	meta, _ := setup["_meta"].(map[string]any)
	ta, _ := meta["terminal-auth"].(map[string]any)
	args, _ := ta["args"].([]any)
	if setup["type"] != "terminal" || setup["id"] != "setup" || ta["command"] != binary || len(args) != 2 || args[0] != "acp" || args[1] != "--setup" {
		t.Fatalf("the setup method %v, want a terminal method whose _meta runs %s acp --setup", setup, binary)
	}
	if rpcErrorCode(before[2]) != -32000 || rpcErrorCode(before[3]) != -32000 {
		t.Fatalf("without a key, authenticate %v and session/new %v, want -32000", before[2], before[3])
	}

	tm := h.startTUI(nil, "acp", "--setup")
	tm.waitFor("Welcome to albert-code: setup")
	tm.send("\r") // albert
	tm.waitFor("Choose a model of albert")
	tm.send("\r")
	tm.waitFor("Paste your albert API key")
	tm.send("sk-from-the-editor", "\r")
	tm.waitFor("Setup saved")
	if code := exitCode(tm.wait()); code != 0 {
		t.Fatalf("acp --setup exited %d; screen:\n%s", code, tm.screen())
	}
	env, err := os.ReadFile(filepath.Join(h.home, ".env"))
	if err != nil || !strings.Contains(string(env), "ALBERT_API_KEY='sk-from-the-editor'") {
		t.Fatalf(".env = %q, %v", env, err)
	}

	after := h.acpExchange(initialize, authenticate, string(newSession))
	if after[2]["error"] != nil || after[2]["result"] == nil {
		t.Fatalf("authenticate after the setup: %v", after[2])
	}
	if res, _ := after[3]["result"].(map[string]any); res == nil || res["sessionId"] == "" {
		t.Fatalf("session/new after the setup: %v", after[3])
	}
}

// Leaving the setup screen saves nothing and exits non-zero, which an editor reads
// as a failed login.
func TestACPSetupCancelledExitsNonZero(t *testing.T) {
	h := newHarness(t, fakemodel.Turn{Text: []string{"unused"}})
	h.env = withoutVar(h.env, "ALBERT_API_KEY")
	tm := h.startTUI(nil, "acp", "--setup")
	tm.waitFor("Welcome to albert-code: setup")
	tm.send(keyEsc)
	tm.waitFor("setup cancelled: nothing was saved")
	if code := exitCode(tm.wait()); code == 0 {
		t.Fatal("a cancelled setup exited 0")
	}
	if _, err := os.Stat(filepath.Join(h.home, ".env")); !os.IsNotExist(err) {
		t.Errorf("a cancelled setup wrote .env: %v", err)
	}
}

func TestMainACPHelpOffersSetup(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := MainACP([]string{"--help"}, strings.NewReader(""), &stdout, &stderr); code != ExitOK || !strings.Contains(stdout.String(), "--setup") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// A save that fails is shown on the key step, where the user may try again or leave.
func TestACPSetupShowsAFailedSave(t *testing.T) {
	h := newHarness(t)
	h.env = withoutVar(h.env, "ALBERT_API_KEY")
	if err := os.MkdirAll(filepath.Join(h.home, ".env"), 0o755); err != nil { // a folder where the file goes
		t.Fatal(err)
	}
	tm := h.startTUI(nil, "acp", "--setup")
	tm.waitFor("Welcome to albert-code: setup")
	tm.send("\r")
	tm.waitFor("Choose a model of albert")
	tm.send("\r")
	tm.waitFor("Paste your albert API key")
	tm.send("sk-unsaved", "\r")
	tm.waitFor("save the API key in")
	if s := tm.screen(); !strings.Contains(s, "Paste your albert API key") {
		t.Fatalf("the failed save left the key step:\n%s", s)
	}
	tm.send(keyCtrlC)
	tm.waitFor("setup cancelled")
	if code := exitCode(tm.wait()); code == 0 {
		t.Fatal("a setup that saved nothing exited 0")
	}
}

// Without a terminal the setup cannot read keys: it says so and what else to do.
func TestMainACPSetupWithoutATerminalSaysWhatToDo(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("ALBERT_CODE_HOME", filepath.Join(home, ".albert-code"))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w.Close()
	var stdout, stderr bytes.Buffer
	code := MainACP([]string{"--setup"}, r, &stdout, &stderr)
	if code != ExitError || !strings.Contains(stderr.String(), "albert-acp: --setup needs a terminal") || !strings.Contains(stderr.String(), "ALBERT_API_KEY") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}
