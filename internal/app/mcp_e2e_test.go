package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// mcpServerBin is a real MCP server from npm, pinned in
// internal/tool/mcp/testdata/servers (npm ci --prefix there). Without it the test fails
// and says how to install it.
func mcpServerBin(t *testing.T, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "tool", "mcp", "testdata", "servers", "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(name + " is not installed: run npm ci --prefix internal/tool/mcp/testdata/servers (as .ci/run does)")
	}
	return path
}

// The model calls a tool of a real MCP server (server-everything over stdio) in a
// headless run; a second server that cannot start is reported on stderr and the run
// goes on.
func TestHeadlessRunCallsAnMCPTool(t *testing.T) {
	t.Parallel()
	bin := mcpServerBin(t, "mcp-server-everything")
	h := newHarness(t,
		calls(fakemodel.ToolCall{ID: "m1", Name: "everything_get-sum", Arguments: `{"a":2,"b":40}`}),
		fakemodel.Turn{Text: []string{"The sum is 42."}},
	)
	h.globalConfig(fmt.Sprintf(`[mcp_servers.everything]
command = %q
args = ["stdio"]
enabled_tools = ["get-sum", "echo"]

[mcp_servers.broken]
command = "/nonexistent/mcp-server"

[tools.everything_get-sum]
permission = "always"
`, bin))
	r := h.run("-p", "--trust", "--output", "json", "add 2 and 40")
	if r.code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if s := h.summary(r); s.Text != "The sum is 42." {
		t.Errorf("text = %q", s.Text)
	}
	if got := h.toolResult(1, "m1"); !strings.Contains(got, "42") {
		t.Errorf("tool result = %q, want the server's sum", got)
	}
	body := h.srv.Requests()[0].Body
	if !strings.Contains(body, `"everything_get-sum"`) || !strings.Contains(body, `"everything_echo"`) || strings.Contains(body, `"everything_get-env"`) {
		t.Error("the model was not offered exactly the enabled MCP tools")
	}
	if !strings.Contains(r.stderr, "warning: MCP server broken") {
		t.Errorf("stderr does not report the broken server:\n%s", r.stderr)
	}
}
