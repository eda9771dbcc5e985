package mcp

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// fakeServerEnv makes the test binary an MCP stdio server (see TestMain): a real
// go-sdk server whose tools misbehave on request.
const fakeServerEnv = "ALBERT_CODE_FAKE_MCP_SERVER"

// fakeClientEnv makes the test binary an agent that starts the fake server, prints
// the server's answer and waits to be killed (TestServerDiesWithItsClient).
const fakeClientEnv = "ALBERT_CODE_FAKE_MCP_CLIENT"

func TestMain(m *testing.M) {
	if os.Getenv(fakeServerEnv) != "" {
		runFakeServer()
		return
	}
	if os.Getenv(fakeClientEnv) != "" {
		exe, _ := os.Executable()
		set := Start(context.Background(), []config.MCPServer{{Name: "fake", Command: exe, Env: map[string]string{fakeServerEnv: "stubborn", fakeClientEnv: ""},
			StartupTimeout: 10 * time.Second, ToolTimeout: 10 * time.Second}}, Options{})
		res, err := set.Tools()[0].Run(context.Background(), tool.Call{Args: []byte(`{}`)})
		fmt.Println(res.Output, err)
		time.Sleep(time.Minute)
		return
	}
	os.Exit(m.Run())
}

type countArgs struct{}

type sleepArgs struct {
	Seconds int `json:"seconds"`
}

type probeArgs struct {
	Path string `json:"path"`
}

type exitArgs struct {
	Code int `json:"code"`
}

// runFakeServer serves tools that show what the client does with a stateful server
// (count: one process for the session), a slow one (sleep) and one that dies (exit).
func runFakeServer() {
	s := sdk.NewServer(&sdk.Implementation{Name: "fake", Version: "1"}, nil)
	var calls atomic.Int64
	sdk.AddTool(s, &sdk.Tool{Name: "count", Description: "counts its calls in this process"},
		func(context.Context, *sdk.CallToolRequest, countArgs) (*sdk.CallToolResult, any, error) {
			n := calls.Add(1)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("call %d of process %d", n, os.Getpid())}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "sleep", Description: "waits"},
		func(ctx context.Context, _ *sdk.CallToolRequest, a sleepArgs) (*sdk.CallToolResult, any, error) {
			select {
			case <-time.After(time.Duration(a.Seconds) * time.Second):
			case <-ctx.Done():
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "awake"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "exit", Description: "exits the server"},
		func(_ context.Context, _ *sdk.CallToolRequest, a exitArgs) (*sdk.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "fake server: exiting on request")
			os.Exit(a.Code)
			return nil, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "garbage", Description: "writes a log line on stdout"},
		func(context.Context, *sdk.CallToolRequest, countArgs) (*sdk.CallToolResult, any, error) {
			fmt.Fprintln(os.Stdout, "DEBUG: cache warmed")
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "a tool error"},
		func(context.Context, *sdk.CallToolRequest, countArgs) (*sdk.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("the disk is on fire")
		})
	sdk.AddTool(s, &sdk.Tool{Name: "odd.name/with spaces", Description: "a name providers refuse"},
		func(context.Context, *sdk.CallToolRequest, countArgs) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "odd"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "probe", Description: "its environment, and whether it can write a file"},
		func(_ context.Context, _ *sdk.CallToolRequest, a probeArgs) (*sdk.CallToolResult, any, error) {
			text := strings.Join(os.Environ(), "\n")
			if err := os.WriteFile(a.Path, []byte("x"), 0o644); err != nil {
				text += "\nwrite failed: " + err.Error()
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil, nil
		})
	addSampleTool(s)
	if os.Getenv(fakeServerEnv) == "slow-start" {
		time.Sleep(time.Minute)
	}
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "fake server:", err)
		os.Exit(1)
	}
	if os.Getenv(fakeServerEnv) == "stubborn" {
		// Like a server whose timers keep it alive after its stdin closed.
		time.Sleep(time.Minute)
	}
}

// fakeServer is the configuration of the fake stdio server, in mode.
func fakeServer(t testing.TB, name, mode string) config.MCPServer {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	srv := stdioServer(name, exe)
	srv.Env = map[string]string{fakeServerEnv: mode}
	srv.StartupTimeout, srv.ToolTimeout = 10*time.Second, 10*time.Second
	return srv
}
