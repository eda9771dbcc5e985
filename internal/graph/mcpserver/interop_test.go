package mcpserver

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

// interopTimeout bounds the build and the Node client run. Judgement: the build
// takes seconds from a warm cache, the client under two.
const interopTimeout = 3 * time.Minute

// TestTypeScriptClient drives `albert-code graph mcp` with the official TypeScript
// SDK client from npm, as an agent host would. It fails, never skips, when Node or
// the npm packages are missing: .ci/run installs them.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel()
	clientDir, _ := filepath.Abs(filepath.Join("testdata", "client"))
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed: the MCP interop test needs Node 18+ and `npm ci` in %s", clientDir)
	}
	if _, err := os.Stat(filepath.Join(clientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("the TypeScript MCP SDK is not installed: run `npm ci` in %s", clientDir)
	}
	ctx, cancel := context.WithTimeout(t.Context(), interopTimeout)
	defer cancel()
	binary := filepath.Join(t.TempDir(), "albert-code")
	build := exec.CommandContext(ctx, "go", "build", "-o", binary, "github.com/etalab-ia/albert-code/cmd/albert-code")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build albert-code: %v\n%s", err, out)
	}
	repo := copyFixture(t)
	cmd := exec.CommandContext(ctx, node, filepath.Join(clientDir, "client.mjs"), binary, repo)
	cmd.Env = append(os.Environ(), ProfileEnv+"=full", "XDG_CACHE_HOME="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("client.mjs: %v\nstderr:\n%s", err, stderr.String())
	}
	var got struct {
		Tools            []string        `json:"tools"`
		Analyze          AnalyzeOut      `json:"analyze"`
		Search           SearchOut       `json:"search"`
		SearchStructured json.RawMessage `json:"searchStructured"`
		Symbol           SymbolOut       `json:"symbol"`
		Unknown          struct {
			IsError bool `json:"isError"`
			UnknownSymbol
		} `json:"unknown"`
		NoSuchTool string `json:"noSuchTool"`
		Prompts    []struct {
			Name string   `json:"name"`
			Args []string `json:"args"`
		} `json:"prompts"`
		Explore string `json:"explore"`
	}
	if err := json.Unmarshal(stdout, &got); err != nil {
		t.Fatalf("client output: %v\n%s", err, stdout)
	}
	for _, want := range []string{"health_check", "analyze_codebase", "search_codebase", "get_symbol", "query_graph", "find_callers"} {
		if !slices.Contains(got.Tools, want) {
			t.Errorf("tools/list lacks %s: %v", want, got.Tools)
		}
	}
	if got.Analyze.Report == nil || got.Analyze.Files == 0 || !got.Analyze.TypesPending || got.Analyze.GoTypes {
		t.Errorf("analyze_codebase = %+v; want the first pass's report, the typed pass pending", got.Analyze)
	}
	if len(got.Search.Items) == 0 || got.Search.Items[0].File == "" || got.Search.Items[0].Line == 0 ||
		len(got.Search.Items) > 3 || got.Search.Freshness == nil || len(got.SearchStructured) == 0 {
		t.Errorf("search_codebase = %+v (structured %s)", got.Search, got.SearchStructured)
	}
	if len(got.Symbol.Definitions) != 1 || got.Symbol.Definitions[0].File != "shapes/registry.go" || got.Symbol.Callers.TotalCount == 0 {
		t.Errorf("get_symbol = %+v", got.Symbol)
	}
	if !got.Unknown.IsError || !slices.Contains(got.Unknown.DidYouMean, "example.com/fixture/shapes.Describe") {
		t.Errorf("get_symbol(Describ) = %+v", got.Unknown)
	}
	if len(got.Prompts) != 2 || got.Prompts[0].Name != "explore_codebase" || !slices.Equal(got.Prompts[0].Args, []string{"focus"}) ||
		got.Prompts[1].Name != "review_change_impact" || !slices.Equal(got.Prompts[1].Args, []string{"base"}) {
		t.Errorf("prompts/list = %+v", got.Prompts)
	}
	if !strings.Contains(got.Explore, "## Matches for \"Register\"\n- `example.com/fixture/shapes.Register`") {
		t.Errorf("prompts/get explore_codebase = %s", got.Explore)
	}
	if !strings.Contains(got.NoSuchTool, "unknown tool") {
		t.Errorf("no_such_tool = %q", got.NoSuchTool)
	}
	if t.Failed() {
		t.Logf("client output: %s\nstderr: %s", stdout, stderr.String())
	}
}
