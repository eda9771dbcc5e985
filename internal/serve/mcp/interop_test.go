package mcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTypeScriptClient drives /mcp with the official TypeScript SDK's Streamable
// HTTP client, as an agent host would. It fails, never skips, when Node or the npm
// package is missing: .ci/run installs it.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel()
	sdk, _ := filepath.Abs("../../graph/mcpserver/testdata/client/node_modules/@modelcontextprotocol/sdk")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: the MCP interop test needs Node 18+")
	}
	if _, err := os.Stat(filepath.Join(sdk, "package.json")); err != nil {
		t.Fatalf("the TypeScript MCP SDK is not installed: run `npm ci` in %s", filepath.Dir(filepath.Dir(filepath.Dir(sdk))))
	}
	h := newHarness(t)
	// Judgement: Node starts and the client runs in well under two seconds.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "testdata/client.mjs", h.url, mcpToken)
	cmd.Env = append(os.Environ(), "MCP_SDK="+sdk)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("client.mjs: %v\nstderr:\n%s", err, stderr.String())
	}
	var got struct {
		SessionID string   `json:"sessionId"`
		Tools     []string `json:"tools"`
		Write     DoneOut  `json:"write"`
		Read      ReadOut  `json:"read"`
		List      ListOut  `json:"list"`
		Escape    struct {
			IsError bool   `json:"isError"`
			Text    string `json:"text"`
		} `json:"escape"`
		Run struct {
			IsError    bool   `json:"isError"`
			Text       string `json:"text"`
			Structured struct {
				RunID     string `json:"runId"`
				Workspace string `json:"workspace"`
			} `json:"structured"`
		} `json:"run"`
	}
	if err := json.Unmarshal(stdout, &got); err != nil {
		t.Fatalf("client output: %v\n%s", err, stdout)
	}
	if got.SessionID == "" {
		t.Error("no session id: the transport is not the stateful Streamable HTTP one")
	}
	if !slices.Equal(got.Tools, []string{"code_graph", "delete_file", "list_files", "read_file", "run_prompt", "write_file"}) {
		t.Errorf("tools = %v", got.Tools)
	}
	if got.Write.Status != "ok" || got.Read.Content != "bonjour" || len(got.List.Entries) != 1 || got.List.Entries[0].Name != "hello.txt" {
		t.Errorf("file tools: write %+v, read %+v, list %+v", got.Write, got.Read, got.List)
	}
	if !got.Escape.IsError || !strings.Contains(got.Escape.Text, `".." is not allowed`) {
		t.Errorf("read_file(../outside) = %+v", got.Escape)
	}
	if got.Run.IsError || got.Run.Text != "echo: say hi" || got.Run.Structured.RunID == "" || got.Run.Structured.Workspace != filepath.Join(h.root, "ts") {
		t.Errorf("run_prompt = %+v", got.Run)
	}
	if t.Failed() {
		t.Logf("client output: %s\nstderr: %s", stdout, stderr.String())
	}
}
