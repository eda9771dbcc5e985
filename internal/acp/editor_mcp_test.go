package acp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// fakeMCPPidFile makes the test binary a stdio MCP server (see TestMain) that writes
// its pid to the file this variable names, so tests can tell whether it still runs.
const fakeMCPPidFile = "ALBERT_CODE_ACP_FAKE_MCP_PIDFILE"

func TestMain(m *testing.M) {
	if path := os.Getenv(fakeMCPPidFile); path != "" {
		if err := os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			os.Exit(3)
		}
		_ = newEchoServer().Run(context.Background(), &mcpsdk.StdioTransport{})
		return
	}
	os.Exit(m.Run())
}

// newEchoServer is an MCP server with one tool, shout, that upper-cases its text.
func newEchoServer() *mcpsdk.Server {
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "shouter", Version: "1"}, nil)
	type args struct {
		Text string `json:"text"`
	}
	mcpsdk.AddTool(s, &mcpsdk.Tool{Name: "shout", Description: "Upper-cases text."},
		func(_ context.Context, _ *mcpsdk.CallToolRequest, a args) (*mcpsdk.CallToolResult, any, error) {
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: strings.ToUpper(a.Text)}}}, nil, nil
		})
	return s
}

func everythingBin(t testing.TB) string {
	t.Helper()
	path, err := filepath.Abs("../tool/mcp/testdata/servers/node_modules/.bin/mcp-server-everything")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal("mcp-server-everything is not installed: run npm ci --prefix internal/tool/mcp/testdata/servers (as .ci/run does)")
	}
	return path
}

func (f *fixture) writeConfig(toml string) {
	f.t.Helper()
	path := filepath.Join(f.vars["XDG_CONFIG_HOME"], "albert-code", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(toml), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// The editor's stdio server starts with the session, its tools join the session's
// under its name, asked about like a configured server's; it wins over a configured
// server of the same name, and a server that cannot start is reported without
// failing the session.
func TestEditorStdioMCPServerToolsRunInTheSession(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{ID: "m1", Name: "everything_echo", Arguments: `{"message":"bonjour"}`}}},
		{Text: []string{"done"}},
	}}, nil)
	f.writeConfig("[mcp_servers.everything]\ncommand = \"/nonexistent/configured-everything\"\n")
	c := &client{answers: []string{optAllowOnce}}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess, err := conn.NewSession(ctxFor(t), sdk.NewSessionRequest{Cwd: f.work, McpServers: []sdk.McpServer{
		{Stdio: &sdk.McpServerStdio{Name: "everything", Command: everythingBin(t), Args: []string{"stdio"}, Env: []sdk.EnvVariable{}}},
		{Stdio: &sdk.McpServerStdio{Name: "broken one", Command: "/nonexistent/editor-mcp", Args: []string{}, Env: []sdk.EnvVariable{}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "echo"))
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", resp, err)
	}
	if len(c.asked) != 1 || c.asked[0].ToolCall.ToolCallId != "m1" {
		t.Errorf("permission requests %+v, want one for m1", c.asked)
	}
	if body := f.srv.ModelRequests()[1].Body; !strings.Contains(body, "bonjour") || strings.Contains(body, `"is_error":true`) {
		t.Errorf("the echo result did not reach the model: %s", body)
	}
	text := c.agentText()
	for _, want := range []string{`"everything" replaces the server of the same name`, "MCP server broken_one", "/nonexistent/editor-mcp"} {
		if !strings.Contains(text, want) {
			t.Errorf("the editor was not told %q: %s", want, text)
		}
	}
	if strings.Contains(text, "configured-everything") {
		t.Errorf("the configured server of the same name was started: %s", text)
	}
}

func TestInitializeAdvertisesTheMCPTransports(t *testing.T) {
	f, out := start(t, fakemodel.Script{}, nil)
	conn := sdk.NewClientSideConnection(&client{}, f.toSrv, out)
	resp, err := conn.Initialize(ctxFor(t), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil {
		t.Fatal(err)
	}
	if mc := resp.AgentCapabilities.McpCapabilities; !mc.Http || !mc.Sse || mc.Acp {
		t.Errorf("mcpCapabilities = %+v, want http and sse", mc)
	}
}

// Streamable HTTP and SSE servers sent by the editor are reached with its headers.
func TestEditorHTTPAndSSEMCPServers(t *testing.T) {
	auth := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Editor") != "zed" {
				http.Error(w, "missing X-Editor", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	mux := http.NewServeMux()
	getServer := func(*http.Request) *mcpsdk.Server { return newEchoServer() }
	mux.Handle("/mcp", auth(mcpsdk.NewStreamableHTTPHandler(getServer, nil)))
	mux.Handle("/sse", auth(mcpsdk.NewSSEHandler(getServer, nil)))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close) // after the fixture's cleanup, which ends the SSE stream

	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{
			{ID: "h1", Name: "web_shout", Arguments: `{"text":"streamable"}`},
			{ID: "s1", Name: "legacy_shout", Arguments: `{"text":"sse"}`},
		}},
		{Text: []string{"done"}},
	}}, nil)
	c := &client{answers: []string{optAllowOnce, optAllowOnce}}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	hdr := []sdk.HttpHeader{{Name: "X-Editor", Value: "zed"}}
	sess, err := conn.NewSession(ctxFor(t), sdk.NewSessionRequest{Cwd: f.work, McpServers: []sdk.McpServer{
		{Http: &sdk.McpServerHttpInline{Type: "http", Name: "web", Url: ts.URL + "/mcp", Headers: hdr}},
		{Sse: &sdk.McpServerSseInline{Type: "sse", Name: "legacy", Url: ts.URL + "/sse", Headers: hdr}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "shout")); err != nil {
		t.Fatal(err)
	}
	body := f.srv.ModelRequests()[1].Body
	if !strings.Contains(body, "STREAMABLE") || !strings.Contains(body, `"SSE"`) {
		t.Errorf("the HTTP and SSE results did not reach the model: %s\nagent said: %s", body, c.agentText())
	}
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	var pid int
	waitFor(t, "the MCP server's pid file", func() bool {
		data, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(string(data))
		return err == nil
	})
	return pid
}

func waitGone(t *testing.T, pid int, when string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("MCP server %d still runs %s", pid, when)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The editor's servers stop with session/close, and with the connection when the
// editor goes away: no orphan processes.
func TestEditorMCPServersStopWithTheSessionAndTheConnection(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, out := start(t, fakemodel.Script{}, nil)
	conn := f.connect(out, &client{}, sdk.ClientCapabilities{})
	newSession := func(pidFile string) sdk.SessionId {
		resp, err := conn.NewSession(ctxFor(t), sdk.NewSessionRequest{Cwd: f.work, McpServers: []sdk.McpServer{
			{Stdio: &sdk.McpServerStdio{Name: "shouter", Command: exe, Args: []string{},
				Env: []sdk.EnvVariable{{Name: fakeMCPPidFile, Value: pidFile}}}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		return resp.SessionId
	}
	dir := t.TempDir()
	first := newSession(filepath.Join(dir, "first.pid"))
	pid1 := readPid(t, filepath.Join(dir, "first.pid"))
	newSession(filepath.Join(dir, "second.pid"))
	pid2 := readPid(t, filepath.Join(dir, "second.pid"))
	if pid1 == pid2 {
		t.Fatalf("two sessions share the server process %d", pid1)
	}
	if _, err := conn.CloseSession(ctxFor(t), sdk.CloseSessionRequest{SessionId: first}); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid1, "after session/close")
	if err := syscall.Kill(pid2, 0); err != nil {
		t.Fatalf("the other session's server %d stopped too: %v", pid2, err)
	}
	_ = f.toSrv.Close()
	select {
	case err := <-f.done:
		f.done <- err // for the fixture's cleanup
	case <-time.After(15 * time.Second):
		t.Fatal("Serve did not return after the editor closed its end")
	}
	waitGone(t, pid2, fmt.Sprintf("after the connection ended (%d)", pid2))
}

func TestEditorServersAreNamedAndCheckedLikeConfiguredOnes(t *testing.T) {
	long := strings.Repeat("x", 40)
	stdio := func(name, command string) sdk.McpServer {
		return sdk.McpServer{Stdio: &sdk.McpServerStdio{Name: name, Command: command, Args: []string{}, Env: []sdk.EnvVariable{{Name: "K", Value: "v"}}}}
	}
	var names []string
	taken := map[string]bool{}
	for _, m := range []sdk.McpServer{stdio("My files", "mcp-files"), stdio("My files", "mcp-files"), stdio(long, "x"), stdio(long, "y"), stdio("", "z")} {
		srv, note := editorServer(m)
		if note != "" || srv.Env["K"] != "v" || srv.StartupTimeout == 0 || srv.ToolTimeout == 0 {
			t.Fatalf("editorServer(%+v) = %+v, %q", m.Stdio, srv, note)
		}
		names = append(names, uniqueName(srv.Name, taken))
	}
	want := []string{"My_files", "My_files_2", long[:32], long[:30] + "_2", "editor"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("names %q, want %q", names, want)
	}
	for _, bad := range []sdk.McpServer{
		stdio("empty", " "),
		{Acp: &sdk.McpServerAcpInline{Type: "acp", Name: "inproc", Id: "1"}},
		{Http: &sdk.McpServerHttpInline{Type: "http", Name: "nourl", Headers: []sdk.HttpHeader{}}},
	} {
		if srv, note := editorServer(bad); srv.Name != "" || note == "" {
			t.Errorf("editorServer(%+v) = %+v, %q: want a notice and no server", bad, srv, note)
		}
	}
}
