package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// TestStdioServerSandbox: a stdio server's environment loses the agent's secrets but
// keeps what its own configuration sets, and a server configured read-only cannot
// write the workspace while one left off can.
func TestStdioServerSandbox(t *testing.T) {
	t.Setenv("ALBERT_API_KEY", "sk-agent-secret")
	ws := t.TempDir()
	sb := sandbox.New(sandbox.Config{Mode: sandbox.WorkspaceWrite, WorkDir: ws})
	defer sb.Close()
	for _, mode := range []string{"read-only", ""} {
		srv := fakeServer(t, "probe"+strings.ReplaceAll(mode, "-", ""), "plain")
		srv.Env["SERVER_API_TOKEN"] = "configured-for-this-server"
		srv.Sandbox = mode
		set := Start(context.Background(), []config.MCPServer{srv}, Options{WorkDir: ws, Sandbox: sb})
		var probe tool.Tool
		for _, tl := range set.Tools() {
			if strings.HasSuffix(tl.Info().Name, "probe") {
				probe = tl
			}
		}
		if probe == nil {
			set.Close()
			t.Fatalf("%q: no probe tool; warnings %v", mode, set.Warnings())
		}
		target := filepath.Join(ws, "written-"+mode)
		args, _ := json.Marshal(probeArgs{Path: target})
		res, err := probe.Run(context.Background(), tool.Call{Args: args})
		set.Close()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Output, "sk-agent-secret") {
			t.Errorf("%q: the server saw the agent's key", mode)
		}
		if !strings.Contains(res.Output, "SERVER_API_TOKEN=configured-for-this-server") {
			t.Errorf("%q: the server lost the variable its configuration sets: %s", mode, res.Output)
		}
		_, statErr := os.Stat(target)
		if mode == "read-only" && statErr == nil {
			t.Errorf("a read-only server wrote the workspace")
		}
		if mode == "" && statErr != nil {
			t.Errorf("a server with the sandbox off could not write: %s", res.Output)
		}
	}
}
