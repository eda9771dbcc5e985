package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/native"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

const testToken = "test-token-0123456789abcdef"

// harness is one API server on 127.0.0.1 over a fresh workspace root and run store.
type harness struct {
	t       *testing.T
	root    string
	srv     *Server
	http    *httptest.Server
	store   *runstore.SQLite
	fakeDir string // where the fake CLI agent leaves its argv, stdin and grandchild pid
}

type setup struct {
	backend    backend.Backend
	baseEnv    []string
	queueBound int
	maxBody    int64
}

// newHarness serves backend; with none, the claude adapter runs the fake CLI agent
// (internal/serve/adapter/testdata/fake-agent.sh) playing transcript in mode.
func newHarness(t *testing.T, s setup) *harness {
	t.Helper()
	dir := t.TempDir()
	h := &harness{t: t, root: filepath.Join(dir, "root"), fakeDir: filepath.Join(dir, "fake")}
	for _, d := range []string{h.root, h.fakeDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	store, err := runstore.OpenSQLite(filepath.Join(dir, "runs.db"), runstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h.store = store
	root, err := workspace.NewRoot(h.root)
	if err != nil {
		t.Fatal(err)
	}
	if s.queueBound == 0 {
		s.queueBound = workspace.DefaultMaxWaiters
	}
	srv, err := New(Options{
		Backend: s.backend, Store: store, Root: root, Tokens: []string{testToken, "second-token-0123456789"},
		Locks:   workspace.NewLocks(max(s.queueBound, 0)),
		Runner:  runner.New(runner.Options{BaseEnv: s.baseEnv, Grace: time.Second, TempParent: dir}),
		MaxBody: s.maxBody, TempParent: dir, CancelWait: 20 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	h.srv = srv
	mux := http.NewServeMux()
	srv.Register(mux)
	h.http = httptest.NewServer(mux)
	t.Cleanup(func() {
		h.http.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		store.Close()
	})
	return h
}

// fakeCLI is the setup of the claude adapter over the fake agent.
func fakeCLI(t *testing.T, fakeDir, transcript, mode string) setup {
	t.Helper()
	script, err := filepath.Abs("../adapter/testdata/fake-agent.sh")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := filepath.Abs(filepath.Join("../adapter/testdata", transcript))
	env := append(os.Environ(), "FAKE_DIR="+fakeDir, "FAKE_TRANSCRIPT="+tr, "FAKE_MODE="+mode)
	return setup{backend: &claude.Adapter{Binary: script}, baseEnv: env}
}

// newCLIHarness serves the fake claude agent.
func newCLIHarness(t *testing.T, transcript, mode string, s setup) *harness {
	t.Helper()
	fake := t.TempDir()
	cli := fakeCLI(t, fake, transcript, mode)
	s.backend, s.baseEnv = cli.backend, cli.baseEnv
	h := newHarness(t, s)
	h.fakeDir = fake
	return h
}

// newNativeHarness serves our agent in-process against a fake model on 127.0.0.1.
func newNativeHarness(t *testing.T, turns ...fakemodel.Turn) (*harness, *fakemodel.Server) {
	t.Helper()
	dir := t.TempDir()
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: turns})
	home := filepath.Join(dir, "home", ".albert-code")
	for _, d := range []string{home, filepath.Join(dir, "xdg")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	vars := map[string]string{
		"HOME": filepath.Join(dir, "home"), "ALBERT_CODE_HOME": home, "XDG_CONFIG_HOME": filepath.Join(dir, "xdg"),
		"ALBERT_API_KEY": "test-key", "ALBERT_CODE_BASE_URL": srv.URL(),
	}
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	n := native.New(native.Options{LookupEnv: lookup, ConfigDir: dir})
	return newHarness(t, setup{backend: n}), srv
}

// do sends a request with the test token and decodes a JSON answer into out (when
// not nil). It returns the response, its body already read.
func (h *harness) do(method, path string, body any, out any) (*http.Response, []byte) {
	h.t.Helper()
	return h.doWith(context.Background(), method, path, body, out, testToken)
}

func (h *harness) doWith(ctx context.Context, method, path string, body any, out any, token string) (*http.Response, []byte) {
	h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, h.http.URL+path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil
		}
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			h.t.Fatalf("%s %s: answer is not JSON: %v: %s", method, path, err, data)
		}
	}
	return resp, data
}

// wantStatus fails the test unless resp has status.
func wantStatus(t *testing.T, resp *http.Response, body []byte, status int) {
	t.Helper()
	if resp == nil {
		t.Fatalf("no response, want %d", status)
	}
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d: %s", resp.StatusCode, status, body)
	}
}

// waitFor polls cond until it holds or 20 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// grandchild is the pid of the process the fake agent left running in hang mode.
func (h *harness) grandchild() int {
	h.t.Helper()
	var pid int
	waitFor(h.t, "the fake agent's grandchild", func() bool {
		data, err := os.ReadFile(filepath.Join(h.fakeDir, "grandchild"))
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(data)))
		return err == nil
	})
	return pid
}

// alive reports whether pid still runs (a zombie counts as gone).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(data))
	return len(f) < 3 || f[2] != "Z"
}

// status is GET /run/result's status for id.
func (h *harness) status(id string) string {
	h.t.Helper()
	var out map[string]any
	h.do("GET", "/run/result?runId="+id, nil, &out)
	s, _ := out["status"].(string)
	return s
}
