package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectKept serves cfg as a long-lived server (Config.Lifetime) and returns
// a client session and the server's handler, whose kept index tests inspect.
func connectKept(t *testing.T, cfg Config) (*mcp.ClientSession, *handler) {
	t.Helper()
	cfg.IndexPath, cfg.Index = indexPath(cfg.Root), indexOptions()
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
