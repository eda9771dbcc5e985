package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
)

// connectKept serves cfg as a long-lived server (Config.Lifetime) and returns
// a client session and the server's handler, whose kept index tests inspect.
func connectKept(t *testing.T, cfg Config) (*mcp.ClientSession, *handler) {
	t.Helper()
	cfg.IndexPath, cfg.Index = indexPath(cfg.Root), indexOptions()
	return serveKept(t, cfg)
}

// serveKept serves cfg, as given, as a long-lived server.
func serveKept(t *testing.T, cfg Config) (*mcp.ClientSession, *handler) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	t.Cleanup(cancel)
	cfg.Lifetime = ctx
	srv, h := newServer(cfg)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs, h
}

func TestKeptServerAnswersAfterAnEditWithoutWalkingTheTree(t *testing.T) {
	t.Parallel()
	root := indexedFixture(t)
	cs, h := connectKept(t, Config{Root: root})
	const hello = "example.com/fixture/app.Base.Hello"

	var health HealthOut
	call(t, cs, "health_check", struct{}{}, &health)
	if !health.Present || health.Freshness == nil || health.Freshness.Status != "fresh" {
		t.Fatalf("health_check = %+v", health)
	}
	res := call(t, cs, "find_callers", map[string]any{"symbol": hello}, nil)
	if strings.Contains(resultText(res), "CallsHello") {
		t.Fatalf("find_callers before the edit already names the new caller: %s", resultText(res))
	}

	app := filepath.Join(root, "app", "app.go")
	src, err := os.ReadFile(app)
	if err != nil {
		t.Fatal(err)
	}
	edited := string(src) + "\n// CallsHello is new.\nfunc CallsHello() string { var b Base; return b.Hello() }\n"
	if err := os.WriteFile(app, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	var out struct {
		AnswerOut
	}
	res = call(t, cs, "find_callers", map[string]any{"symbol": hello}, &out)
	if !strings.Contains(resultText(res), `"qualified_name":"example.com/fixture/app.CallsHello"`) {
		t.Fatalf("the question right after the edit does not see it: %s", resultText(res))
	}
	if out.Freshness == nil || out.Freshness.Status != "fresh" {
		t.Fatalf("freshness after the kept index caught up = %+v", out.Freshness)
	}
	call(t, cs, "query_graph", map[string]any{"sql": "SELECT 1"}, nil)
	s := h.keptNow().Stats()
	if !s.Watching || s.FullScans != 1 || s.DirScans != 1 || s.Runs != 1 {
		t.Fatalf("kept index stats = %+v, want watching, one full scan (the first call), one directory listing and one index run for the edit", s)
	}
}

func TestKeptServerWithoutIndexAsksForAnalyzeThenKeepsIt(t *testing.T) {
	t.Parallel()
	root := copyFixture(t)
	cs, h := connectKept(t, Config{Root: root})
	var health HealthOut
	call(t, cs, "health_check", struct{}{}, &health)
	if health.Present || !strings.Contains(health.Advice, "analyze_codebase") || h.keptNow() != nil {
		t.Fatalf("health_check without an index = %+v", health)
	}
	call(t, cs, "analyze_codebase", struct{}{}, nil)
	res := call(t, cs, "find_callers", map[string]any{"symbol": "example.com/fixture/shapes.Register"}, nil)
	if res.IsError || h.keptNow() == nil {
		t.Fatalf("after analyze_codebase: %s (kept: %v)", resultText(res), h.keptNow() != nil)
	}
}

// On a repository without an index, a long-lived server's analyze_codebase
// answers from the first pass (Go's definitions) without waiting for the type
// checker: its report and the questions asked meanwhile say
// "type-checking in progress"; the typed pass then lands in the background
// and the same question is answered from it.
func TestKeptAnalyzeAnswersFromTheFirstPassThenLandsTypes(t *testing.T) {
	t.Parallel()
	root := copyFixture(t)
	hold := make(chan struct{})
	cfg := Config{Root: root}
	cs, h := connectKeptHolding(t, cfg, hold)
	const register = "example.com/fixture/shapes.Register"

	var rep AnalyzeOut
	res := call(t, cs, "analyze_codebase", struct{}{}, &rep)
	if res.IsError || rep.Report == nil || !rep.TypesPending || rep.GoTypes || !strings.Contains(rep.Advice, golang.TypesPending) {
		t.Fatalf("analyze_codebase on a new index = %s; want the first pass's report, types pending, with advice", resultText(res))
	}
	var def AnswerOut
	call(t, cs, "get_definition", map[string]any{"symbol": register}, &def)
	if len(def.Items) != 1 || def.Items[0].File != "shapes/registry.go" {
		t.Errorf("get_definition during the first pass = %+v; want shapes/registry.go", def.Items)
	}
	var callers AnswerOut
	call(t, cs, "find_callers", map[string]any{"symbol": register}, &callers)
	if callers.Certainty != "lower-bound" || !strings.Contains(callers.Why, golang.TypesPending) {
		t.Errorf("find_callers during the first pass: %s, %q; want lower-bound citing %q", callers.Certainty, callers.Why, golang.TypesPending)
	}
	var health HealthOut
	call(t, cs, "health_check", struct{}{}, &health)
	if health.TypesPending != golang.TypesPending {
		t.Errorf("health_check during the first pass: types_pending %q", health.TypesPending)
	}

	close(hold)
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	if err := h.keptNow().WaitTypes(ctx); err != nil {
		t.Fatal(err)
	}
	if s := h.keptNow().Stats(); s.TypedPasses != 1 || s.TypesError != "" {
		t.Fatalf("kept index after the pass: %+v; want one typed pass landed", s)
	}
	callers = AnswerOut{}
	call(t, cs, "find_callers", map[string]any{"symbol": register}, &callers)
	if strings.Contains(callers.Why, golang.TypesPending) || len(callers.Items) == 0 {
		t.Errorf("find_callers after the typed pass: %s, %q, %d callers; want the typed pass's", callers.Certainty, callers.Why, len(callers.Items))
	}
	health = HealthOut{}
	call(t, cs, "health_check", struct{}{}, &health)
	if health.TypesPending != "" {
		t.Errorf("health_check after the typed pass: types_pending %q", health.TypesPending)
	}
}

// connectKeptHolding is connectKept whose kept index holds its background
// type checker's pass back until hold is closed.
func connectKeptHolding(t *testing.T, cfg Config, hold <-chan struct{}) (*mcp.ClientSession, *handler) {
	t.Helper()
	cfg.IndexPath = indexPath(cfg.Root)
	cfg.Index = indexOptions()
	cfg.Index.HoldTypes = hold
	return serveKept(t, cfg)
}
