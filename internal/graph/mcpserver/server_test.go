package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// testTimeout bounds every test's conversation with the server. A bound, not an
// expectation: a cold build cache makes the first index compile the standard
// library's export data (tens of seconds on two busy cores).
const testTimeout = 180 * time.Second

func indexOptions() index.Options {
	return index.Options{Go: golang.DefaultOptions(), Extract: treesitter.Extractor{}.Extract}
}

// copyFixture copies the Go fixture module into a fresh folder and returns it.
func copyFixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("..", "golang", "testdata", "fixture")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// indexPath keeps a repository's index in the repository, as the CLI does.
func indexPath(root string) func(bool) (string, error) {
	return func(create bool) (string, error) {
		dir := filepath.Join(root, ".albert-code", "graph")
		if create {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return "", err
			}
		}
		return filepath.Join(dir, "graph.db"), nil
	}
}

// indexedFixture returns a copy of the fixture, indexed.
func indexedFixture(t *testing.T) string {
	t.Helper()
	root := copyFixture(t)
	path, _ := indexPath(root)(true)
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	if _, err := index.Run(ctx, root, st, indexOptions()); err != nil {
		t.Fatal(err)
	}
	return root
}

// wireLog records what the server writes, for checks on the bytes actually sent.
type wireLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *wireLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

// writes returns the messages the server sent, as logged by mcp.LoggingTransport.
func (w *wireLog) writes() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for line := range strings.Lines(w.buf.String()) {
		if msg, ok := strings.CutPrefix(line, "write: "); ok {
			out = append(out, strings.TrimSuffix(msg, "\n"))
		}
	}
	return out
}

// connect serves cfg over an in-memory transport and returns a client session.
func connect(t *testing.T, cfg Config) (*mcp.ClientSession, *wireLog) {
	t.Helper()
	if cfg.IndexPath == nil {
		cfg.IndexPath = indexPath(cfg.Root)
	}
	cfg.Index = indexOptions()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	t.Cleanup(cancel)
	ct, st := mcp.NewInMemoryTransports()
	log := &wireLog{}
	ss, err := New(cfg).Connect(ctx, &mcp.LoggingTransport{Transport: st, Writer: log}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs, log
}

// call calls a tool and decodes its text content into out (when not nil).
func call(t *testing.T, cs *mcp.ClientSession, name string, args any, out any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", name, len(res.Content))
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			t.Fatalf("%s: %v in %s", name, err, text)
		}
	}
	return res
}

func resultText(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }

func TestToolsPerProfile(t *testing.T) {
	t.Parallel()
	core := []string{"analyze_codebase", "detect_changes", "get_symbol", "health_check", "query_graph", "search_codebase"}
	full := append(slices.Clone(core), "find_callees", "find_callers", "find_implementations", "find_references", "get_cochange", "get_communities", "get_definition", "get_entry_points")
	// get_impact and get_context follow the engine: listed in both profiles once query answers them.
	for _, extra := range []struct{ kind, tool string }{{"impact", "get_impact"}, {"context", "get_context"}} {
		if slices.Contains(query.Kinds, extra.kind) {
			core, full = append(core, extra.tool), append(full, extra.tool)
		}
	}
	full = append(full, "trace_process")
	slices.Sort(core)
	slices.Sort(full)
	for _, tc := range []struct {
		profile Profile
		want    []string
	}{{Core, core}, {Full, full}, {"", full}} {
		t.Run(string(tc.profile), func(t *testing.T) {
			t.Parallel()
			cs, _ := connect(t, Config{Root: t.TempDir(), Profile: tc.profile})
			res, err := cs.ListTools(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tool := range res.Tools {
				got = append(got, tool.Name)
				if tool.Description == "" {
					t.Errorf("%s has no description", tool.Name)
				}
				schema, _ := json.Marshal(tool.InputSchema)
				for _, p := range map[string][]string{"search_codebase": {"query", "offset", "limit"},
					"get_symbol": {"symbol", "offset", "limit"}, "query_graph": {"sql", "max_rows", "offset", "limit"}}[tool.Name] {
					if !strings.Contains(string(schema), `"`+p+`"`) {
						t.Errorf("%s input schema lacks %s: %s", tool.Name, p, schema)
					}
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("tools = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseProfile(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Profile{"": Full, "full": Full, "core": Core, " CORE ": Core} {
		if got, err := ParseProfile(in); err != nil || got != want {
			t.Errorf("ParseProfile(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseProfile("tiny"); err == nil {
		t.Error("ParseProfile(tiny) succeeded")
	}
}

// A tool the profile hides must be indistinguishable from one that never existed.
func TestHiddenToolAnswersLikeUnknown(t *testing.T) {
	t.Parallel()
	cs, log := connect(t, Config{Root: indexedFixture(t), Profile: Core})
	args := map[string]any{"symbol": "Describe"}
	_, hiddenErr := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "find_callers", Arguments: args})
	_, unknownErr := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "no_such_tool", Arguments: args})
	var hidden, unknown *jsonrpc.Error
	if !errors.As(hiddenErr, &hidden) || !errors.As(unknownErr, &unknown) {
		t.Fatalf("want JSON-RPC errors, got %v and %v", hiddenErr, unknownErr)
	}
	if hidden.Code != unknown.Code || strings.ReplaceAll(hidden.Message, "find_callers", "X") != strings.ReplaceAll(unknown.Message, "no_such_tool", "X") {
		t.Errorf("hidden tool answered %d %q, unknown tool %d %q", hidden.Code, hidden.Message, unknown.Code, unknown.Message)
	}
	// And on the wire, byte for byte once the names and request ids are swapped.
	// The log is written just after the message: wait for it, a little.
	var w []string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if w = errorWrites(log); len(w) >= 2 || time.Now().After(deadline) {
			break
		}
	}
	if len(w) != 2 || w[0] != w[1] {
		t.Errorf("wire errors differ: %q", w)
	}
}

func errorWrites(log *wireLog) []string {
	var w []string
	for _, msg := range log.writes() {
		if strings.Contains(msg, `"error"`) {
			msg = strings.NewReplacer("find_callers", "X", "no_such_tool", "X").Replace(msg)
			w = append(w, regexp.MustCompile(`"id":\d+`).ReplaceAllString(msg, `"id":N`))
		}
	}
	return w
}

// hasItemKeys checks that every item in a raw JSON list carries the four keys an
// agent relies on.
func hasItemKeys(t *testing.T, tool string, raw []map[string]any) {
	t.Helper()
	for _, it := range raw {
		for _, k := range []string{"qualified_name", "kind", "file", "line"} {
			if _, ok := it[k]; !ok {
				t.Errorf("%s: item %v lacks %s", tool, it, k)
			}
		}
	}
}

func TestToolsOnFixture(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, Config{Root: indexedFixture(t), Profile: Full, Version: "test"})

	var health HealthOut
	call(t, cs, "health_check", nil, &health)
	if !health.Present || health.Stats == nil || health.Stats.NodeCount == 0 || health.Freshness == nil || health.Freshness.Status == "" {
		t.Errorf("health_check = %+v", health)
	}

	var search struct {
		SearchOut
		Raw []map[string]any `json:"items"`
	}
	call(t, cs, "search_codebase", map[string]any{"query": "Describe"}, &search)
	hasItemKeys(t, "search_codebase", search.Raw)
	if !slices.ContainsFunc(search.Raw, func(it map[string]any) bool { return it["qualified_name"] == "example.com/fixture/shapes.Describe" }) ||
		search.Freshness == nil || search.TotalCount != len(search.Raw) {
		t.Errorf("search_codebase(Describe) = %+v", search)
	}

	for _, tc := range []struct {
		tool, symbol, want string
	}{
		{"get_definition", "Describe", "example.com/fixture/shapes.Describe"},
		{"find_callers", "example.com/fixture/shapes.Register", "example.com/fixture/shapes.init@registry.go"},
		{"find_callees", "example.com/fixture/shapes.init@registry.go", "example.com/fixture/shapes.Register"},
		{"find_references", "example.com/fixture/shapes.Pi", "example.com/fixture/shapes.Circle.Area"},
		{"find_implementations", "example.com/fixture/shapes.Shape", "example.com/fixture/shapes.Square"},
		{"trace_process", "example.com/fixture/shapes.init@registry.go", "example.com/fixture/shapes.Register"},
	} {
		var out struct {
			AnswerOut
			Raw []map[string]any `json:"items"`
		}
		res := call(t, cs, tc.tool, map[string]any{"symbol": tc.symbol}, &out)
		hasItemKeys(t, tc.tool, out.Raw)
		if res.IsError || out.Certainty == "" || out.Why == "" || out.Freshness == nil || out.TotalCount != len(out.Raw) {
			t.Errorf("%s(%s) = %s", tc.tool, tc.symbol, resultText(res))
		}
		if !strings.Contains(resultText(res), `"qualified_name":"`+tc.want+`"`) {
			t.Errorf("%s(%s) lacks %s: %s", tc.tool, tc.symbol, tc.want, resultText(res))
		}
		if res.StructuredContent == nil {
			t.Errorf("%s: no structured content", tc.tool)
		}
	}

	// The engine's newer questions, when it answers them.
	for _, tc := range []struct{ kind, tool string }{{"impact", "get_impact"}, {"context", "get_context"}} {
		if !slices.Contains(query.Kinds, tc.kind) {
			continue
		}
		var out struct {
			AnswerOut
			Raw []map[string]any `json:"items"`
		}
		res := call(t, cs, tc.tool, map[string]any{"symbol": "example.com/fixture/shapes.Register"}, &out)
		hasItemKeys(t, tc.tool, out.Raw)
		if res.IsError || len(out.Raw) == 0 || out.Certainty == "" || out.Freshness == nil {
			t.Errorf("%s(Register) = %s", tc.tool, resultText(res))
		}
	}

	var sym SymbolOut
	res := call(t, cs, "get_symbol", map[string]any{"symbol": "example.com/fixture/shapes.Register"}, &sym)
	if len(sym.Definitions) != 1 || sym.Definitions[0].File != "shapes/registry.go" || sym.Definitions[0].Line == 0 ||
		sym.Callers.TotalCount == 0 || sym.Callers.Certainty == "" || sym.Freshness == nil {
		t.Errorf("get_symbol(Register) = %s", resultText(res))
	}

	var unknown UnknownSymbol
	res = call(t, cs, "find_callers", map[string]any{"symbol": "Describ"}, &unknown)
	if !res.IsError || !slices.Contains(unknown.DidYouMean, "example.com/fixture/shapes.Describe") {
		t.Errorf("find_callers(Describ) = %s", resultText(res))
	}
	res = call(t, cs, "get_symbol", map[string]any{"symbol": "Describ"}, &unknown)
	if !res.IsError || len(unknown.DidYouMean) == 0 {
		t.Errorf("get_symbol(Describ) = %s", resultText(res))
	}

	var rows SQLOut
	res = call(t, cs, "query_graph", map[string]any{"sql": "SELECT qname, kind FROM nodes ORDER BY qname", "max_rows": 3}, &rows)
	if res.IsError || len(rows.Rows) != 3 || !rows.RowCapHit || rows.TotalCount != 3 || !slices.Equal(rows.Columns, []string{"qname", "kind"}) {
		t.Errorf("query_graph = %s", resultText(res))
	}
}

func TestHostileSQLRefused(t *testing.T) {
	t.Parallel()
	root := indexedFixture(t)
	cs, _ := connect(t, Config{Root: root, Profile: Core})
	for _, sql := range []string{
		"DELETE FROM nodes",
		"DROP TABLE nodes",
		"SELECT 1; DELETE FROM nodes",
		"ATTACH DATABASE '" + filepath.Join(root, "x.db") + "' AS x",
		"PRAGMA writable_schema = 1",
		"INSERT INTO meta VALUES ('k', 'v')",
	} {
		res := call(t, cs, "query_graph", map[string]any{"sql": sql}, nil)
		if !res.IsError || !strings.Contains(resultText(res), "refused") {
			t.Errorf("query_graph(%q) = %s, want a refusal", sql, resultText(res))
		}
	}
	var rows SQLOut
	call(t, cs, "query_graph", map[string]any{"sql": "SELECT count(*) FROM nodes"}, &rows)
	if len(rows.Rows) != 1 || rows.Rows[0][0].(float64) == 0 {
		t.Errorf("nodes were lost: %+v", rows)
	}
}

func TestAnalyzeCodebase(t *testing.T) {
	t.Parallel()
	root := copyFixture(t)
	cs, _ := connect(t, Config{Root: root, Profile: Core})
	var health HealthOut
	call(t, cs, "health_check", nil, &health)
	if health.Present || !strings.Contains(health.Advice, "analyze_codebase") {
		t.Errorf("health_check before indexing = %+v", health)
	}
	res := call(t, cs, "search_codebase", map[string]any{"query": "Describe"}, nil)
	if !res.IsError || !strings.Contains(resultText(res), "analyze_codebase") {
		t.Errorf("search before indexing = %s", resultText(res))
	}
	var rep AnalyzeOut
	res = call(t, cs, "analyze_codebase", nil, &rep)
	if res.IsError || rep.Report == nil || rep.Files == 0 || rep.Extracted == 0 || rep.Freshness == nil || rep.Freshness.Status != "fresh" {
		t.Fatalf("analyze_codebase = %s", resultText(res))
	}
	// The second run is incremental: nothing changed, nothing is extracted.
	call(t, cs, "analyze_codebase", nil, &rep)
	if rep.Extracted != 0 || rep.Unchanged == 0 {
		t.Errorf("second analyze_codebase extracted %d, unchanged %d", rep.Extracted, rep.Unchanged)
	}
	var search SearchOut
	call(t, cs, "search_codebase", map[string]any{"query": "Describe"}, &search)
	if len(search.Items) == 0 {
		t.Error("search after indexing found nothing")
	}

	// A damaged index makes questions fail with advice, and analyze_codebase
	// rebuilds it.
	path, _ := indexPath(root)(false)
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database\n", 400)), 0o644); err != nil {
		t.Fatal(err)
	}
	res = call(t, cs, "search_codebase", map[string]any{"query": "Describe"}, nil)
	if !res.IsError || !strings.Contains(resultText(res), "analyze_codebase") {
		t.Errorf("search on a corrupt index = %s", resultText(res))
	}
	rep = AnalyzeOut{}
	res = call(t, cs, "analyze_codebase", nil, &rep)
	if res.IsError || rep.Rebuilt != "it was corrupt" || rep.Extracted == 0 {
		t.Errorf("analyze_codebase on a corrupt index = %s", resultText(res))
	}
}

// With a tiny budget every list needs several pages; walking next_offset must
// return the same items as one unbudgeted call, and every message must fit.
func TestBudgetPaging(t *testing.T) {
	t.Parallel()
	root := indexedFixture(t)
	whole, _ := connect(t, Config{Root: root, Profile: Full})
	const budget = 2500
	small, log := connect(t, Config{Root: root, Profile: Full, Budget: budget})
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"search_codebase", map[string]any{"query": "shapes fixture app container", "limit": 1000}},
		{"find_references", map[string]any{"symbol": "example.com/fixture/shapes.Shape", "limit": 1000}},
		{"query_graph", map[string]any{"sql": "SELECT qname, kind, file, line FROM nodes ORDER BY qname", "limit": 1000}},
	} {
		var all struct {
			Page
			Items []json.RawMessage `json:"items"`
			Rows  []json.RawMessage `json:"rows"`
		}
		call(t, whole, tc.tool, tc.args, &all)
		want := append(all.Items, all.Rows...)
		var got []json.RawMessage
		pages := 0
		for offset := 0; ; pages++ {
			if pages > 500 {
				t.Fatalf("%s: paging does not end", tc.tool)
			}
			tc.args["offset"] = offset
			var page struct {
				Page
				Items []json.RawMessage `json:"items"`
				Rows  []json.RawMessage `json:"rows"`
			}
			res := call(t, small, tc.tool, tc.args, &page)
			if res.IsError {
				t.Fatalf("%s at %d: %s", tc.tool, offset, resultText(res))
			}
			got = append(got, page.Items...)
			got = append(got, page.Rows...)
			if page.TotalCount != len(want) || page.Offset != offset {
				t.Errorf("%s page at %d: %+v, want total %d", tc.tool, offset, page.Page, len(want))
			}
			if page.NextOffset == nil {
				if page.Truncated {
					t.Errorf("%s: truncated without next_offset", tc.tool)
				}
				break
			}
			offset = *page.NextOffset
		}
		if pages < 2 {
			t.Errorf("%s: %d items fit in one %d-byte page; the test needs a smaller budget", tc.tool, len(want), budget)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: pages hold %d items, one call %d, or their order differs", tc.tool, len(got), len(want))
		}
	}
	for _, msg := range log.writes() {
		if len(msg) > budget {
			t.Errorf("a %d-byte message exceeds the %d budget: %.200s", len(msg), budget, msg)
		}
	}
}

// A single item larger than the budget is an error that says what to do, never an
// empty page that would send the agent back to the same offset.
func TestBudgetItemTooLarge(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, Config{Root: indexedFixture(t), Profile: Core, Budget: 2500})
	res := call(t, cs, "query_graph", map[string]any{"sql": "SELECT printf('%.3000c', 'x')"}, nil)
	if !res.IsError || !strings.Contains(resultText(res), "alone exceeds") {
		t.Errorf("oversized row = %s", resultText(res))
	}
}

func TestDetectChanges(t *testing.T) {
	t.Parallel()
	root := indexedFixture(t)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-qm", "init"}} {
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	path := filepath.Join(root, "shapes", "registry.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "func Register(s Shape) {", "func Register(s Shape) {\n\t_ = s", 1)
	if edited == string(src) {
		t.Fatal("the fixture's Register changed shape: update this test")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, Config{Root: root, IndexPath: indexPath(root)})
	var out struct {
		Changed []struct {
			QName string `json:"qualified_name"`
			Risk  string `json:"risk"`
		} `json:"changed"`
		Heuristic string `json:"heuristic"`
	}
	res := call(t, cs, "detect_changes", map[string]any{}, &out)
	if res.IsError || len(out.Changed) != 1 || out.Changed[0].QName != "example.com/fixture/shapes.Register" || !strings.Contains(out.Heuristic, "heuristic") {
		t.Fatalf("detect_changes = %s", resultText(res))
	}
	var co struct {
		File    string `json:"file"`
		Commits int    `json:"commits"`
	}
	if res := call(t, cs, "get_cochange", map[string]any{"file": "shapes/registry.go"}, &co); res.IsError || co.Commits != 1 {
		t.Fatalf("get_cochange = %s", resultText(res))
	}
	var ep struct {
		Items []struct {
			QName string `json:"qualified_name"`
		} `json:"items"`
		TotalCount int `json:"total_count"`
	}
	res = call(t, cs, "get_entry_points", map[string]any{"limit": 2}, &ep)
	if res.IsError || len(ep.Items) != 2 || ep.TotalCount < 3 || !strings.Contains(resultText(res), "heuristic") {
		t.Fatalf("get_entry_points = %s", resultText(res))
	}
}
