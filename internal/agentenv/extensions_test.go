package agentenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// fakeMCPEnv makes the test binary a stdio MCP server (see TestMain) whose count
// tool says how many calls its process served and what its pid is.
const fakeMCPEnv = "ALBERT_CODE_AGENTENV_FAKE_MCP"

func TestMain(m *testing.M) {
	if os.Getenv(fakeMCPEnv) != "" {
		s := sdk.NewServer(&sdk.Implementation{Name: "counter", Version: "1"}, nil)
		var n atomic.Int64
		sdk.AddTool(s, &sdk.Tool{Name: "count", Description: "Counts its calls."},
			func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("call %d pid %d", n.Add(1), os.Getpid())}}}, nil, nil
			})
		addSampleTool(s)
		_ = s.Run(context.Background(), &sdk.StdioTransport{})
		return
	}
	os.Exit(m.Run())
}

// extEnv is a sandbox with a global config file holding extra, a fake model
// answering script, and a work folder.
type extEnv struct {
	root, work, home string
	srv              *fakemodel.Server
	vars             map[string]string
}

func newExtEnv(t *testing.T, extra string, script fakemodel.Script) *extEnv {
	t.Helper()
	root := t.TempDir()
	x := &extEnv{root: root, work: filepath.Join(root, "repo", "work"), home: filepath.Join(root, "home", ".albert-code")}
	x.srv = fakemodel.NewTest(t, script)
	x.vars = map[string]string{
		"HOME": filepath.Join(root, "home"), "ALBERT_CODE_HOME": x.home,
		"XDG_CONFIG_HOME": filepath.Join(root, "xdg"), "ALBERT_API_KEY": "k", "ALBERT_CODE_BASE_URL": x.srv.URL(),
	}
	for _, d := range []string{x.work, filepath.Join(root, "repo", ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(root, "xdg", "albert-code", "config.toml"), extra)
	return x
}

func (x *extEnv) load(t *testing.T, trust bool) *Env {
	t.Helper()
	e, err := Load(Options{WorkDir: x.work, Trust: trust, LookupEnv: func(k string) (string, bool) { v, ok := x.vars[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}

func fakeMCPConfig(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`[mcp_servers.counter]
command = %q
env = { %s = "1" }

[mcp_servers.broken]
command = "/nonexistent/mcp-server"

[tools.counter_count]
permission = "always"
`, exe, fakeMCPEnv)
}

func runPrompt(t *testing.T, run *Run, prompt string) agent.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := run.Agent.Run(ctx, prompt, func(agent.Event) {})
	if res.Stop != agent.StopEndTurn {
		t.Fatalf("stop = %q, err %v", res.Stop, res.Err)
	}
	return res
}

func countCall() fakemodel.Turn {
	return fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{Name: "counter_count", Arguments: `{}`}}}
}

// The servers start once for the session: a profile switch, which closes the run
// before opening the next, keeps the same process; a server that cannot start is
// reported once and the agent goes on; Close stops the process.
func TestMCPServersLiveForTheSession(t *testing.T) {
	x := newExtEnv(t, fakeMCPConfig(t), fakemodel.Script{Turns: []fakemodel.Turn{
		countCall(), {Text: []string{"one"}}, countCall(), {Text: []string{"two"}},
	}})
	e := x.load(t, true)
	run, err := e.NewRun(RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(run.Warnings, "\n"); !strings.Contains(w, "MCP server broken") || !strings.Contains(w, "/nonexistent/mcp-server") {
		t.Errorf("warnings = %q, want the broken server reported", run.Warnings)
	}
	runPrompt(t, run, "count")
	run.Close()

	plan, err := e.WithProfile("accept-edits")
	if err != nil {
		t.Fatal(err)
	}
	run2, err := plan.NewRun(RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run2.Warnings) > 0 {
		t.Errorf("the second run repeated warnings: %q", run2.Warnings)
	}
	runPrompt(t, run2, "count again")
	run2.Close()

	reqs := x.srv.Requests()
	first, second := toolResult(t, reqs[1].Body), toolResult(t, reqs[3].Body)
	var pid1, pid2 int
	if _, err := fmt.Sscanf(first, "call 1 pid %d", &pid1); err != nil {
		t.Fatalf("first result %q: %v", first, err)
	}
	if _, err := fmt.Sscanf(second, "call 2 pid %d", &pid2); err != nil || pid2 != pid1 {
		t.Fatalf("second result %q: want call 2 of process %d", second, pid1)
	}
	if !strings.Contains(reqs[0].Body, `"name":"counter_count"`) {
		t.Error("the model was not offered counter_count")
	}
	e.Close()
	if err := syscall.Kill(pid1, 0); err == nil {
		t.Errorf("server process %d still runs after Env.Close", pid1)
	}
}

// toolResult digs the last tool message's content out of a chat-completions body.
func toolResult(t *testing.T, body string) string {
	t.Helper()
	i := strings.LastIndex(body, `"role":"tool"`)
	if i < 0 {
		t.Fatalf("no tool message in %s", body)
	}
	rest := body[i:]
	j := strings.Index(rest, `"content":"`)
	if j < 0 {
		t.Fatalf("no content in %s", rest)
	}
	rest = rest[j+len(`"content":"`):]
	return rest[:strings.IndexByte(rest, '"')]
}

func TestMCPServersStopAfterTheLastRunLingers(t *testing.T) {
	x := newExtEnv(t, fakeMCPConfig(t), fakemodel.Script{Turns: []fakemodel.Turn{countCall(), {Text: []string{"one"}}}})
	e := x.load(t, true)
	e.mcp.linger = 10 * time.Millisecond
	run, err := e.NewRun(RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	runPrompt(t, run, "count")
	run.Close()
	var pid int
	if _, err := fmt.Sscanf(toolResult(t, x.srv.Requests()[1].Body), "call 1 pid %d", &pid); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("server %d still runs after its last run closed", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
