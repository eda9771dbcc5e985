package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/serve/api"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

const (
	mcpToken = "mcp-token-0123456789abcdef"
	apiToken = "api-token-0123456789abcdef"
	// testWait bounds every wait in these tests; judgement: each step takes
	// milliseconds, and -race on a loaded machine a hundred times more.
	testWait = 20 * time.Second
)

// garbledLine is the OutputError of a prompt containing "garbled": the agent printed
// a line its adapter could not read.
const garbledLine = `line 2 is not a JSON record: "Segmentation fault"`

// fakeAgent is a backend that answers at once, except for prompts containing "slow",
// which wait for release or the run's end.
type fakeAgent struct {
	started chan string   // receives each slow prompt as it starts
	release chan struct{} // closed to let slow prompts finish
	stopped chan error    // receives why a slow prompt stopped early

	mu   sync.Mutex
	reqs []backend.Request // every request, in order
}

// requests returns the requests the agent was given.
func (f *fakeAgent) requests() []backend.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.reqs)
}

func newFakeAgent() *fakeAgent {
	return &fakeAgent{started: make(chan string, 4), release: make(chan struct{}), stopped: make(chan error, 4)}
}

func (f *fakeAgent) Name() string { return "fake" }

func (f *fakeAgent) Run(ctx context.Context, req *backend.Request, _ func(backend.Event)) (backend.Result, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, *req)
	f.mu.Unlock()
	if strings.Contains(req.Prompt, "slow") {
		f.started <- req.Prompt
		select {
		case <-f.release:
		case <-ctx.Done():
			f.stopped <- context.Cause(ctx)
			return backend.Result{Stopped: "cancelled", ExitCode: -1}, ctx.Err()
		}
	}
	res := backend.Result{Text: "echo: " + req.Prompt, SessionID: "session-1", Usage: backend.Usage{InputTokens: 7, OutputTokens: 3}}
	if len(req.JSONSchema) > 0 {
		res.Text = `{"answer": "yes"}`
	}
	if strings.Contains(req.Prompt, "garbled") {
		res.OutputError = garbledLine
	}
	return res, nil
}

// harness is the MCP server mounted on the API's mux, on 127.0.0.1.
type harness struct {
	root  string
	agent *fakeAgent
	store *runstore.SQLite
	api   *api.Server
	mcp   *Server
	http  *httptest.Server
	url   string // the /mcp endpoint
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	dir := t.TempDir()
	h := &harness{root: filepath.Join(dir, "root"), agent: newFakeAgent()}
	root, err := workspace.NewRoot(h.root)
	if err != nil {
		t.Fatal(err)
	}
	h.root = root.Dir()
	store, err := runstore.OpenSQLite(filepath.Join(dir, "runs.db"), runstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h.store = store
	h.api, err = api.New(api.Options{Backend: h.agent, Store: store, Root: root, Tokens: []string{apiToken}, TempParent: dir})
	if err != nil {
		t.Fatal(err)
	}
	h.mcp, err = New(Options{Runs: h.api, Root: root, Tokens: []string{mcpToken}, MaxBody: 1 << 20, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	h.api.Register(mux)
	h.mcp.Mount(mux)
	h.http = httptest.NewServer(mux)
	h.url = h.http.URL + "/mcp"
	t.Cleanup(func() {
		h.mcp.Close()
		h.http.Close()
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		if err := h.api.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		store.Close()
	})
	return h
}

// withToken adds a bearer token to every request.
type withToken struct {
	token string
	next  http.RoundTripper
}

func (w withToken) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+w.token)
	return w.next.RoundTrip(r)
}

// connect opens an MCP session with the go-sdk client over real HTTP.
func (h *harness) connect(t *testing.T) *mcpsdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testWait)
	defer cancel()
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: h.url,
		HTTPClient: &http.Client{Transport: withToken{mcpToken, http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool and returns its result, failing on a protocol error.
func call(t *testing.T, cs *mcpsdk.ClientSession, name string, args map[string]any) *mcpsdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testWait)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(res *mcpsdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
