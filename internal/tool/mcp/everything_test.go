package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/tool"
)

func stdioServer(name, command string, args ...string) config.MCPServer {
	return config.MCPServer{Name: name, Command: command, Args: args,
		StartupTimeout: 20 * time.Second, ToolTimeout: 20 * time.Second}
}

func startSet(t *testing.T, o Options, servers ...config.MCPServer) *Set {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	set := Start(ctx, servers, o)
	t.Cleanup(func() {
		if err := set.Close(); err != nil {
			t.Logf("close: %v", err)
		}
	})
	return set
}

func findTool(t *testing.T, set *Set, name string) tool.Tool {
	t.Helper()
	var names []string
	for _, tl := range set.Tools() {
		if tl.Info().Name == name {
			return tl
		}
		names = append(names, tl.Info().Name)
	}
	t.Fatalf("no tool %s among %v (warnings: %v)", name, names, set.Warnings())
	return nil
}

func call(t *testing.T, tl tool.Tool, args string) tool.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := tool.Invoke(ctx, tl, tool.Call{ID: "c1", Args: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s(%s): %v", tl.Info().Name, args, err)
	}
	return res
}

func TestEverythingOverStdio(t *testing.T) {
	bin := npmBin(t, "mcp-server-everything")
	set := startSet(t, Options{}, stdioServer("everything", bin, "stdio"))
	if w := set.Warnings(); len(w) > 0 {
		t.Fatalf("warnings: %v", w)
	}
	res := call(t, findTool(t, set, "everything_echo"), `{"message":"bonjour"}`)
	if res.IsError || !strings.Contains(res.Output, "bonjour") {
		t.Errorf("echo = %+v", res)
	}
	res = call(t, findTool(t, set, "everything_get-sum"), `{"a":2,"b":3}`)
	if res.IsError || !strings.Contains(res.Output, "5") {
		t.Errorf("get-sum = %+v", res)
	}
	// Progress notifications reach the call's Progress func, as the bash tool's output does.
	var mu sync.Mutex
	var progress []string
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := tool.Invoke(ctx, findTool(t, set, "everything_trigger-long-running-operation"), tool.Call{
		Args: json.RawMessage(`{"duration":1,"steps":3}`),
		Progress: func(s string) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, s)
		},
	})
	mu.Lock()
	defer mu.Unlock()
	// The last notification may lose the race with the result: it is then dropped.
	if err != nil || res.IsError || len(progress) < 2 || progress[0] != "progress 1/3\n" || progress[1] != "progress 2/3\n" {
		t.Errorf("long operation = %+v, %v; progress %q", res, err, progress)
	}
}
