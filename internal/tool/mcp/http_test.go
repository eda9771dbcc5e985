package mcp

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/config"
)

// everythingHTTP runs server-everything's Streamable HTTP mode on port and waits
// until it listens. The returned stop ends it.
func everythingHTTP(t *testing.T, bin string, port int) (stop func()) {
	t.Helper()
	cmd := exec.Command(bin, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	stop = func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return stop
		}
		if time.Now().After(deadline) {
			stop()
			t.Fatalf("server-everything did not listen on %d: %v", port, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestEverythingOverHTTPSurvivesARestart(t *testing.T) {
	bin := npmBin(t, "mcp-server-everything")
	port := freePort(t)
	stop := everythingHTTP(t, bin, port)
	defer func() { stop() }()
	srv := config.MCPServer{Name: "ev", URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port),
		StartupTimeout: 20 * time.Second, ToolTimeout: 20 * time.Second, EnabledTools: []string{"echo", "get-*"}}
	set := startSet(t, Options{}, srv)
	if w := set.Warnings(); len(w) > 0 {
		t.Fatalf("warnings: %v", w)
	}
	for _, tl := range set.Tools() {
		if n := tl.Info().Name; n != "ev_echo" && !strings.HasPrefix(n, "ev_get-") {
			t.Errorf("tool %s passed the enabled_tools filter", n)
		}
	}
	if res := call(t, findTool(t, set, "ev_echo"), `{"message":"one"}`); !strings.Contains(res.Output, "one") {
		t.Fatalf("echo = %+v", res)
	}
	res := call(t, findTool(t, set, "ev_get-structured-content"), `{"location":"New York"}`)
	if res.IsError || !strings.Contains(res.Output, "temperature") {
		t.Errorf("structured content = %+v", res)
	}

	// The server restarts and forgets the session: the next call gets a 404, and the
	// client opens a new session and repeats the call, which never ran.
	stop()
	stop = everythingHTTP(t, bin, port)
	if res := call(t, findTool(t, set, "ev_echo"), `{"message":"two"}`); res.IsError || !strings.Contains(res.Output, "two") {
		t.Errorf("echo after restart = %+v", res)
	}
}

func TestFilesystemServerReadsAndLists(t *testing.T) {
	bin := npmBin(t, "mcp-server-filesystem")
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/notes.txt", []byte("bonjour Albert\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := stdioServer("fs", bin, dir)
	srv.DisabledTools = []string{"write_file", "edit_file", "create_directory", "move_file"}
	set := startSet(t, Options{}, srv)
	for _, tl := range set.Tools() {
		if strings.Contains(tl.Info().Name, "write_file") || strings.Contains(tl.Info().Name, "move_file") {
			t.Errorf("tool %s passed the disabled_tools filter", tl.Info().Name)
		}
	}
	res := call(t, findTool(t, set, "fs_read_text_file"), fmt.Sprintf(`{"path":%q}`, dir+"/notes.txt"))
	if res.IsError || !strings.Contains(res.Output, "bonjour Albert") {
		t.Errorf("read = %+v", res)
	}
	res = call(t, findTool(t, set, "fs_list_directory"), fmt.Sprintf(`{"path":%q}`, dir))
	if res.IsError || !strings.Contains(res.Output, "notes.txt") {
		t.Errorf("list = %+v", res)
	}
	// Outside its allowed folders the server refuses, and the model reads why.
	res = call(t, findTool(t, set, "fs_read_text_file"), `{"path":"/etc/hostname"}`)
	if !res.IsError || !strings.Contains(strings.ToLower(res.Output), "denied") {
		t.Errorf("read outside = %+v, want a model-visible refusal", res)
	}
}

func TestHTTPHeadersAndBearerToken(t *testing.T) {
	t.Parallel()
	s := sdk.NewServer(&sdk.Implementation{Name: "go-fake", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "ping"}, func(context.Context, *sdk.CallToolRequest, countArgs) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, nil, nil
	})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	var mu sync.Mutex
	var seen []http.Header
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	srv := config.MCPServer{Name: "go", URL: ts.URL, Headers: map[string]string{"X-Team": "core"}, BearerTokenEnv: "GO_TOKEN",
		StartupTimeout: 5 * time.Second, ToolTimeout: 5 * time.Second}
	lookup := func(k string) (string, bool) { return map[string]string{"GO_TOKEN": "s3cret"}[k], k == "GO_TOKEN" }
	set := startSet(t, Options{LookupEnv: lookup}, srv)
	if res := call(t, findTool(t, set, "go_ping"), `{}`); res.Output != "pong" {
		t.Fatalf("ping = %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("no request reached the server")
	}
	for _, h := range seen {
		if h.Get("X-Team") != "core" || h.Get("Authorization") != "Bearer s3cret" {
			t.Errorf("request headers %v lack X-Team or the bearer token", h)
		}
	}
}
