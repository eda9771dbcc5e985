package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// binary is the albert-code executable the end-to-end tests run, built once.
var binary string

// goEnv carries the test process's Go caches into each run's otherwise empty HOME:
// the code graph type-checks Go through the go command, and an empty build cache per
// run would recompile the standard library in every test.
var goEnv []string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "albert-code-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "albert-code")
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "go env:", err)
		os.Exit(1)
	}
	for i, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if v := strings.Split(strings.TrimSpace(string(out)), "\n"); i < len(v) {
			goEnv = append(goEnv, name+"="+v[i])
		}
	}
	build := exec.Command("go", "build", "-o", binary, "github.com/etalab-ia/albert-code/cmd/albert-code")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build albert-code for the end-to-end tests:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// harness is one isolated user: a home, a config, a workspace and a fake model server.
type harness struct {
	t    *testing.T
	home string // ALBERT_CODE_HOME
	work string
	srv  *fakemodel.Server
	env  []string
	// bin replaces the shared binary (one built with a release version).
	bin string
}

func newHarness(t *testing.T, turns ...fakemodel.Turn) *harness {
	t.Helper()
	root := t.TempDir()
	h := &harness{t: t, home: filepath.Join(root, "home", ".albert-code"), work: filepath.Join(root, "work")}
	for _, d := range []string{h.home, h.work, filepath.Join(root, "xdg")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h.srv = fakemodel.NewTest(t, fakemodel.Script{Turns: turns})
	h.env = []string{
		"HOME=" + filepath.Join(root, "home"),
		"ALBERT_CODE_HOME=" + h.home,
		"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"),
		"ALBERT_API_KEY=test-key",
		"PATH=" + os.Getenv("PATH"),
		"ALBERT_CODE_NO_UPDATE_CHECK=1", // no test asks the real release feed
	}
	h.env = append(h.env, goEnv...)
	return h
}

// writeFile writes a file under the workspace.
func (h *harness) writeFile(rel, content string) string {
	h.t.Helper()
	return h.writeUnder(h.work, rel, content)
}

// writeHomeFile writes a file under ALBERT_CODE_HOME.
func (h *harness) writeHomeFile(rel, content string) {
	h.t.Helper()
	h.writeUnder(h.home, rel, content)
}

func (h *harness) writeUnder(dir, rel, content string) string {
	h.t.Helper()
	path := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
	return path
}

type result struct {
	code           int
	stdout, stderr string
}

// command prepares the binary with the harness's environment, pointed at the fake
// server (through ALBERT_CODE_BASE_URL, so subcommands see it too), in the workspace.
func (h *harness) command(ctx context.Context, args ...string) *exec.Cmd {
	bin := binary
	if h.bin != "" {
		bin = h.bin
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = h.work
	cmd.Env = append(h.env, "ALBERT_CODE_BASE_URL="+h.srv.URL())
	cmd.Stdin = strings.NewReader("")
	return cmd
}

// run runs the binary to completion (at most 180 s: a bound, not an expectation; a cold build cache makes the first graph index compile the standard library).
func (h *harness) run(args ...string) result {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	return runToEnd(h.t, ctx, h.command(ctx, args...), args)
}

// runToEnd runs cmd, made with ctx, and collects its exit code and output; running
// out of ctx's time fails the test.
func runToEnd(t *testing.T, ctx context.Context, cmd *exec.Cmd, args []string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("albert-code %v did not finish in time; stderr:\n%s", args, errOut.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}

// summary is the JSON result object of --output json.
type summary struct {
	Type       string  `json:"type"`
	Text       string  `json:"text"`
	SessionID  string  `json:"session_id"`
	StopReason string  `json:"stop_reason"`
	Turns      int     `json:"turns"`
	Cost       float64 `json:"cost"`
	Error      string  `json:"error"`
	Usage      struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
	} `json:"usage"`
}

func (h *harness) summary(r result) summary {
	h.t.Helper()
	var s summary
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		h.t.Fatalf("stdout is not one JSON object (%v):\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
	return s
}

// requestMessages returns the messages the agent sent in request i.
func (h *harness) requestMessages(i int) []map[string]any {
	h.t.Helper()
	reqs := h.srv.Requests()
	if i >= len(reqs) {
		h.t.Fatalf("request %d was never made (%d requests)", i, len(reqs))
	}
	raw, _ := reqs[i].JSON["messages"].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, m := range raw {
		out = append(out, m.(map[string]any))
	}
	return out
}

// toolResult finds the content the agent sent back for a tool call id in request i.
func (h *harness) toolResult(i int, callID string) string {
	h.t.Helper()
	for _, m := range h.requestMessages(i) {
		if m["role"] == "tool" && m["tool_call_id"] == callID {
			s, _ := m["content"].(string)
			return s
		}
	}
	h.t.Fatalf("request %d carries no result for call %s", i, callID)
	return ""
}

func args(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func text(s string) fakemodel.Turn {
	return fakemodel.Turn{Text: []string{s}, Usage: &fakemodel.Usage{PromptTokens: 100, CompletionTokens: 10}}
}

func calls(cs ...fakemodel.ToolCall) fakemodel.Turn {
	return fakemodel.Turn{ToolCalls: cs, Usage: &fakemodel.Usage{PromptTokens: 100, CompletionTokens: 10}}
}
