package console

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

const testToken = "console-test-token-0123456789"

// clock is a settable clock for sessions.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// fixture is a console on 127.0.0.1 over a fresh run store and workspace root.
type fixture struct {
	t       *testing.T
	srv     *httptest.Server
	store   *runstore.SQLite
	root    string
	clock   *clock
	client  *http.Client
	cancels chan string
}

func newFixture(t *testing.T, tweak func(*Options)) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{t: t, root: filepath.Join(dir, "root"), clock: &clock{now: time.Now()}, cancels: make(chan string, 10)}
	if err := os.MkdirAll(f.root, 0o755); err != nil {
		t.Fatal(err)
	}
	store, err := runstore.OpenSQLite(filepath.Join(dir, "runs.db"), runstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	f.store = store
	root, err := workspace.NewRoot(f.root)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Store: store, Root: root, Tokens: []string{testToken}, Now: f.clock.Now,
		Cancel: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			f.cancels <- r.PathValue("id")
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"runId":"`+r.PathValue("id")+`","status":"cancelled"}`)
		})}
	if tweak != nil {
		tweak(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	c.Mount(mux)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	jar, _ := cookiejar.New(nil)
	f.client = &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return f
}

// get fetches path and returns the response and its body.
func (f *fixture) get(path string, headers ...string) (*http.Response, string) {
	f.t.Helper()
	req, err := http.NewRequest("GET", f.srv.URL+path, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return f.send(req)
}

func (f *fixture) post(path string, form url.Values, headers ...string) (*http.Response, string) {
	f.t.Helper()
	req, err := http.NewRequest("POST", f.srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return f.send(req)
}

func (f *fixture) send(req *http.Request) (*http.Response, string) {
	f.t.Helper()
	resp, err := f.client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// login logs in with the test token and returns the session's CSRF token.
func (f *fixture) login() string {
	f.t.Helper()
	resp, body := f.post("/ui/login", url.Values{"token": {testToken}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/ui/runs" {
		f.t.Fatalf("login: %d %s", resp.StatusCode, body)
	}
	_, page := f.get("/ui/runs")
	i := strings.Index(page, `name="csrf" value="`)
	if i < 0 {
		f.t.Fatalf("no CSRF token in the runs page:\n%s", page)
	}
	rest := page[i+len(`name="csrf" value="`):]
	return rest[:strings.IndexByte(rest, '"')]
}

// addRun records a run with prompt, in status st.
func (f *fixture) addRun(id, prompt string, st runstore.Status) {
	f.t.Helper()
	ctx := context.Background()
	req := `{"prompt":` + quote(prompt) + `,"model":"albert-large"}`
	if err := f.store.Create(ctx, runstore.Run{ID: id, Workspace: filepath.Join(f.root, "proj"), Backend: "albert-code",
		Status: runstore.Queued, Request: []byte(req)}); err != nil {
		f.t.Fatal(err)
	}
	if st == runstore.Queued {
		return
	}
	if err := f.store.Start(ctx, id); err != nil {
		f.t.Fatal(err)
	}
	if st.Final() {
		if err := f.store.AppendAttempt(ctx, id, runstore.Attempt{Usage: []byte(`{"input_tokens":120,"output_tokens":7,"cost":0.0012,"currency":"EUR"}`)}); err != nil {
			f.t.Fatal(err)
		}
		if err := f.store.Finish(ctx, id, st, []byte(`{"text":"the answer <b>bold</b>","json":{"ok":true}}`), ""); err != nil {
			f.t.Fatal(err)
		}
	}
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

func mustRoot(t *testing.T, dir string) *workspace.Root {
	t.Helper()
	r, err := workspace.NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
