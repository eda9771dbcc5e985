package mcp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// script writes an executable shell script standing in for a broken server.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "server.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBrokenServersAreReportedAndSkipped(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		server func(t *testing.T) config.MCPServer
		want   []string
		within time.Duration
	}{
		{"garbage on stdout", func(t *testing.T) config.MCPServer {
			return stdioServer("garbage", script(t, `echo "Server listening on port 3000"; sleep 30`))
		}, []string{"MCP server garbage", `wrote "Server listening on port 3000" on stdout, which is not JSON-RPC`}, 5 * time.Second},
		{"exits at once", func(t *testing.T) config.MCPServer {
			return stdioServer("quits", script(t, `echo "missing API key FOO" >&2; exit 3`))
		}, []string{"MCP server quits", "exit status 3", "missing API key FOO"}, 5 * time.Second},
		{"closes stdout, then exits", func(t *testing.T) config.MCPServer {
			// Longer than the 100 ms shutdown grace: the exit is still waited for.
			return stdioServer("slow", script(t, `exec >&-; sleep 0.4; echo "bad config" >&2; exit 4`))
		}, []string{"MCP server slow", "exit status 4", "bad config"}, 5 * time.Second},
		{"hangs", func(t *testing.T) config.MCPServer {
			s := stdioServer("hangs", script(t, `exec sleep 30`))
			s.StartupTimeout = 300 * time.Millisecond
			return s
		}, []string{"MCP server hangs", "no answer within 300ms", "startup_timeout"}, 5 * time.Second},
		{"no such command", func(t *testing.T) config.MCPServer {
			return stdioServer("missing", filepath.Join(t.TempDir(), "not-installed"))
		}, []string{"MCP server missing", "not-installed"}, 5 * time.Second},
		{"HTTP server down", func(t *testing.T) config.MCPServer {
			return config.MCPServer{Name: "down", URL: "http://127.0.0.1:1/mcp", StartupTimeout: 3 * time.Second, ToolTimeout: time.Second}
		}, []string{"MCP server down", "127.0.0.1:1"}, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ok := fakeServer(t, "ok", "normal")
			start := time.Now()
			set := startSet(t, Options{ShutdownGrace: 100 * time.Millisecond}, tt.server(t), ok)
			if d := time.Since(start); d > tt.within {
				t.Errorf("start took %v, want under %v", d, tt.within)
			}
			w := strings.Join(set.Warnings(), "\n")
			for _, want := range tt.want {
				if !strings.Contains(w, want) {
					t.Errorf("warnings %q do not contain %q", w, want)
				}
			}
			// The healthy server is still there: one broken server does not stop the others.
			if res := call(t, findTool(t, set, "ok_count"), `{}`); res.IsError {
				t.Errorf("ok_count = %+v", res)
			}
		})
	}
}

func TestServerIsStartedOncePerSession(t *testing.T) {
	t.Parallel()
	set := startSet(t, Options{}, fakeServer(t, "fake", "normal"))
	count := findTool(t, set, "fake_count")
	first := call(t, count, `{}`).Output
	second := call(t, count, `{}`).Output
	pid := strings.Fields(first)[len(strings.Fields(first))-1]
	if !strings.HasPrefix(first, "call 1 of") || second != "call 2 of process "+pid {
		t.Errorf("calls = %q then %q: want two calls to one process", first, second)
	}
}

func TestCrashedServerIsRestartedOnTheNextCall(t *testing.T) {
	t.Parallel()
	set := startSet(t, Options{ShutdownGrace: 100 * time.Millisecond}, fakeServer(t, "fake", "normal"))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := findTool(t, set, "fake_exit").Run(ctx, tool.Call{Args: []byte(`{"code":2}`)})
	if !errors.Is(err, ErrBroken) || !strings.Contains(err.Error(), "exit status 2") || !strings.Contains(err.Error(), "exiting on request") {
		t.Fatalf("err = %v, want ErrBroken with the exit status and stderr", err)
	}
	res := call(t, findTool(t, set, "fake_count"), `{}`)
	if !strings.HasPrefix(res.Output, "call 1 of process") {
		t.Errorf("after the crash: %q, want a fresh process", res.Output)
	}
}

func TestSlowCallTimesOutAndTheSessionStays(t *testing.T) {
	t.Parallel()
	srv := fakeServer(t, "fake", "normal")
	srv.ToolTimeout = 200 * time.Millisecond
	set := startSet(t, Options{}, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := findTool(t, set, "fake_sleep").Run(ctx, tool.Call{Args: []byte(`{"seconds":20}`)})
	if err == nil || !strings.Contains(err.Error(), "no answer within 200ms") || !strings.Contains(err.Error(), "tool_timeout") {
		t.Fatalf("err = %v, want a timeout naming tool_timeout", err)
	}
	if res := call(t, findTool(t, set, "fake_count"), `{}`); !strings.HasPrefix(res.Output, "call 1 of") {
		t.Errorf("after the timeout: %q", res.Output)
	}
}

func TestToolErrorsReachTheModel(t *testing.T) {
	t.Parallel()
	set := startSet(t, Options{}, fakeServer(t, "fake", "normal"))
	res := call(t, findTool(t, set, "fake_fail"), `{}`)
	if !res.IsError || !strings.Contains(res.Output, "the disk is on fire") {
		t.Errorf("fail = %+v, want a model-visible error", res)
	}
	res = call(t, findTool(t, set, "fake_count"), `[1]`)
	if !res.IsError || !strings.Contains(res.Output, "one JSON object") {
		t.Errorf("array args = %+v", res)
	}
}

func TestGarbageOnStdoutMidSessionBreaksTheCallClearly(t *testing.T) {
	t.Parallel()
	set := startSet(t, Options{ShutdownGrace: 100 * time.Millisecond}, fakeServer(t, "fake", "normal"))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := findTool(t, set, "fake_garbage").Run(ctx, tool.Call{Args: []byte(`{}`)})
	if !errors.Is(err, ErrBroken) || !strings.Contains(err.Error(), `wrote "DEBUG: cache warmed" on stdout`) {
		t.Fatalf("err = %v, want ErrBroken quoting the stray line", err)
	}
	if res := call(t, findTool(t, set, "fake_count"), `{}`); !strings.HasPrefix(res.Output, "call 1 of") {
		t.Errorf("after the restart: %q", res.Output)
	}
}

// A client killed without closing its servers (SIGKILL, a crash) leaves no orphan.
func TestServerDiesWithItsClient(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := exec.CommandContext(ctx, exe)
	client.Env = append(os.Environ(), fakeClientEnv+"=1")
	out, err := client.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("read the client's output: %v", err)
	}
	var pid int
	if _, err := fmt.Sscanf(line, "call 1 of process %d", &pid); err != nil {
		t.Fatalf("client said %q", line)
	}
	_ = client.Process.Kill()
	_ = client.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("server %d outlived its killed client", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A JSON-RPC error (here an unknown tool) is the server's answer, not a broken
// connection: it is reported as such and the session stays.
func TestServerRefusalIsNotABrokenConnection(t *testing.T) {
	t.Parallel()
	set := startSet(t, Options{}, fakeServer(t, "fake", "normal"))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := set.servers[0].Call(ctx, "vanished", []byte(`{}`), nil)
	if err == nil || errors.Is(err, ErrBroken) || !strings.Contains(err.Error(), "MCP server fake refused the call to vanished") {
		t.Fatalf("err = %v", err)
	}
	if res := call(t, findTool(t, set, "fake_count"), `{}`); !strings.HasPrefix(res.Output, "call 1 of") {
		t.Errorf("after the refusal: %q", res.Output)
	}
}

// A server that never answers is killed once its startup timeout passes.
func TestHungServerIsKilled(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	s := stdioServer("hangs", script(t, `echo $$ > `+pidFile+`; exec sleep 30`))
	s.StartupTimeout = 300 * time.Millisecond
	startSet(t, Options{ShutdownGrace: 100 * time.Millisecond}, s)
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Sscan(string(data), &pid); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the hung server %d still runs", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
