package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
)

const token = "stack-test-token-0123456789"

// echo is a backend that answers every prompt at once, without a process or a
// model: the stack around it is what is tested.
type echo struct {
	mu      sync.Mutex
	prompts []string
}

func (*echo) Name() string { return "echo" }

func (e *echo) Run(_ context.Context, req *backend.Request, _ func(backend.Event)) (backend.Result, error) {
	e.mu.Lock()
	e.prompts = append(e.prompts, req.Prompt)
	e.mu.Unlock()
	return backend.Result{Text: "echo: " + req.Prompt, StopReason: "end_turn"}, nil
}

// picky refuses every model but one, as the agent in-process does.
type picky struct{ echo }

func (*picky) CheckModel(name string) error {
	if name != "albert-large" {
		return fmt.Errorf("model %q is not configured and not served", name)
	}
	return nil
}

// fakeConfig is serve's configuration from env over a temporary workspace and run
// store, on 127.0.0.1; port 0 (refused in a real configuration) lets the system
// choose a free port.
func fakeConfig(t *testing.T, env map[string]string) serveconfig.Config {
	t.Helper()
	dir := t.TempDir()
	vars := map[string]string{
		"ALBERT_CODE_WORKSPACE":      filepath.Join(dir, "work"),
		"ALBERT_CODE_RUN_STORE":      filepath.Join(dir, "runs.db"),
		"ALBERT_CODE_API_MODE_HOST":  "127.0.0.1",
		"ALBERT_CODE_API_MODE_TOKEN": token,
	}
	for k, v := range env {
		vars[k] = v
	}
	if err := os.MkdirAll(vars["ALBERT_CODE_WORKSPACE"], 0o755); err != nil {
		t.Fatal(err)
	}
	c, _, ps := serveconfig.Parse(serveconfig.Source{LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }})
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c.API.Port = 0
	return c
}

func quiet() (*slog.Logger, *bytes.Buffer) {
	var b bytes.Buffer
	return slog.New(slog.NewTextHandler(&lockedWriter{w: &b}, nil)), &b
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// The API stack is built listening, serves a run on the backend through its
// runner, and stops cleanly when its context ends.
func TestBuildThenServeTheAPI(t *testing.T) {
	c := fakeConfig(t, map[string]string{"ALBERT_CODE_API_MODE": "1"})
	b := &echo{}
	logger, _ := quiet()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s, err := build(ctx, c, b, t.TempDir(), "albert-code/test", logger)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if len(s.listeners) != 1 || s.listeners[0].name != "API" || s.mcp != nil || s.bot != nil || s.scheduler != nil {
		t.Fatalf("stack: %+v", s)
	}
	served := make(chan error, 1)
	go func() { served <- s.serve(ctx) }()

	url := "http://" + s.listeners[0].ln.Addr().String()
	req, _ := http.NewRequest("POST", url+"/run", strings.NewReader(`{"prompt":"hello"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Text string `json:"text"`
	}
	err = json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || out.Text != "echo: hello" {
		t.Fatalf("POST /run: %d %+v %v", resp.StatusCode, out, err)
	}
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop with its context")
	}
	if _, err := net.Dial("tcp", s.listeners[0].ln.Addr().String()); err == nil {
		t.Fatal("the API's port still answers after the stop")
	}
}

// The MCP server with a port of its own gets a second listener; on the API's
// port it is mounted there instead.
func TestMCPListensWhereConfigured(t *testing.T) {
	logger, _ := quiet()
	c := fakeConfig(t, map[string]string{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_MCP_MODE": "1", "ALBERT_CODE_MCP_MODE_TOKEN": token})
	s, err := build(t.Context(), c, &echo{}, t.TempDir(), "albert-code/test", logger)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.listeners) != 1 || s.mcp == nil {
		t.Errorf("MCP on the API's port: %d listeners, mcp %v", len(s.listeners), s.mcp)
	}
	s.close()

	c = fakeConfig(t, map[string]string{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_MCP_MODE": "1", "ALBERT_CODE_MCP_MODE_TOKEN": token,
		"ALBERT_CODE_MCP_MODE_PORT": strconv.Itoa(freePort(t))})
	s, err = build(t.Context(), c, &echo{}, t.TempDir(), "albert-code/test", logger)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if len(s.listeners) != 2 || s.listeners[1].name != "MCP" {
		t.Errorf("MCP on its own port: %+v", s.listeners)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// A model no one serves stops the start before anything is opened: no run store
// is created.
func TestAnUnknownModelStopsTheBuildFirst(t *testing.T) {
	logger, _ := quiet()
	c := fakeConfig(t, map[string]string{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_AVAILABLE_MODELS": "albert-large,nonesuch"})
	s, err := build(t.Context(), c, &picky{}, t.TempDir(), "albert-code/test", logger)
	var exit *cmdutil.Exit
	if s != nil || !errors.As(err, &exit) || exit.Code != cmdutil.ExitUsage || !strings.Contains(err.Error(), "nonesuch") || strings.Contains(err.Error(), "albert-large") {
		t.Fatalf("stack %v, err %v", s, err)
	}
	if _, err := os.Stat(c.RunStore); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the run store was opened: %v", err)
	}
}

// A step that fails late (the API's port taken) closes what was built before it:
// the run store can be opened again at once, and the error names the setting.
func TestAFailedBuildClosesWhatItBuilt(t *testing.T) {
	logger, _ := quiet()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	c := fakeConfig(t, map[string]string{"ALBERT_CODE_API_MODE": "1"})
	c.API.Port = taken.Addr().(*net.TCPAddr).Port
	s, err := build(t.Context(), c, &echo{}, t.TempDir(), "albert-code/test", logger)
	if s != nil || err == nil || !strings.Contains(err.Error(), "ALBERT_CODE_API_MODE_PORT: listen on port") {
		t.Fatalf("stack %v, err %v", s, err)
	}
	c.API.Port = 0
	s, err = build(t.Context(), c, &echo{}, t.TempDir(), "albert-code/test", logger)
	if err != nil {
		t.Fatalf("the same store again: %v", err)
	}
	s.close()
}

// With the API on, the bot and the scheduler yield (the original's rule), and the
// log says how to run them.
func TestTheAPIWinsOverTheBotAndTheScheduler(t *testing.T) {
	logger, log := quiet()
	c := fakeConfig(t, map[string]string{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_CRON_MODE": "1", "ALBERT_CODE_CRON_MODE_FILE": "/nonexistent.yml",
		"ALBERT_CODE_TELEGRAM_MODE": "1", "ALBERT_CODE_TELEGRAM_MODE_TOKEN": "1:a"})
	s, err := build(t.Context(), c, &echo{}, t.TempDir(), "albert-code/test", logger)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if s.bot != nil || s.scheduler != nil || !strings.Contains(log.String(), "cron mode ignored") || !strings.Contains(log.String(), "telegram mode ignored") {
		t.Fatalf("bot %v, scheduler %v, log:\n%s", s.bot, s.scheduler, log.String())
	}
}
