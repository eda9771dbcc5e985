package console

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/etalab-ia/albert-code/internal/browsertest"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/api"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	"github.com/etalab-ia/albert-code/internal/serve/native"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// server is serve's API with the console mounted, our agent in-process against a
// fake model on 127.0.0.1, and a cron job firing every second.
type server struct {
	url   string
	store *runstore.SQLite
	api   *api.Server
}

func startServer(t *testing.T, turns ...fakemodel.Turn) *server {
	t.Helper()
	dir := t.TempDir()
	model := fakemodel.NewTest(t, fakemodel.Script{Turns: turns})
	home := filepath.Join(dir, "home", ".albert-code")
	rootDir := filepath.Join(dir, "root")
	for _, d := range []string{home, filepath.Join(dir, "xdg"), filepath.Join(rootDir, "proj", "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(rootDir, "proj", "src", "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"HOME": filepath.Join(dir, "home"), "ALBERT_CODE_HOME": home, "XDG_CONFIG_HOME": filepath.Join(dir, "xdg"),
		"ALBERT_API_KEY": "test-key", "ALBERT_CODE_BASE_URL": model.URL(),
	}
	nat := native.New(native.Options{LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, ConfigDir: dir})
	store, err := runstore.OpenSQLite(filepath.Join(dir, "runs.db"), runstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	root, err := workspace.NewRoot(rootDir)
	if err != nil {
		t.Fatal(err)
	}
	locks := workspace.NewLocks(workspace.DefaultMaxWaiters)
	srv, err := api.New(api.Options{Backend: nat, Store: store, Root: root, Tokens: []string{testToken}, Locks: locks,
		Runner: runner.New(runner.Options{Grace: time.Second, TempParent: dir}), TempParent: dir, CancelWait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := cron.Parse("cron.yml", []byte("jobs:\n  - {name: nightly-check, schedule: \"* * * * * *\", instruction: \"check the build\", workspace: proj}\n"), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	sched, err := cron.New(cron.Options{Jobs: jobs.Jobs, Root: root, Locks: locks, HistoryDir: filepath.Join(dir, "cron"),
		Agent: cron.AgentFunc(func(ctx context.Context, req backend.Request) (backend.Result, error) {
			return backend.Result{Text: "the build is green", Stdout: `{"type":"result"}`, Stderr: "1 warning", Stopped: "exited"}, nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	con, err := New(Options{Store: store, Root: root, Tokens: []string{testToken}, Cancel: srv.CancelHandler(), Cron: sched,
		Quota: nat.RateSnapshots})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	srv.Register(mux)
	con.Mount(mux)
	hs := httptest.NewServer(mux)
	ctx, stopCron := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = sched.Run(ctx) })
	t.Cleanup(func() {
		stopCron()
		wg.Wait()
		hs.Close()
		sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		store.Close()
	})
	return &server{url: hs.URL, store: store, api: srv}
}

// postRun starts an async run through the API, as a client would.
func (s *server) postRun(t *testing.T, prompt string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"prompt": prompt, "workspace": "proj", "async": true})
	req, _ := http.NewRequest("POST", s.url+"/run", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		RunID string `json:"runId"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("POST /run: %d %v", resp.StatusCode, err)
	}
	return out.RunID
}

// The console end to end in headless Chromium: log in, watch a run appear in
// the list and stream on its page, cancel it, open a cron job's history and a
// run's logs, the quota gauges and the files, with no console error and no
// failed request (browsertest fails the test on any).
func TestConsoleInARealBrowser(t *testing.T) {
	deltas := []string{"Counting", " slowly:"}
	for range 30 {
		deltas = append(deltas, " tick")
	}
	s := startServer(t, fakemodel.Turn{Text: deltas, ChunkDelay: 200 * time.Millisecond, Hang: true})
	b := browsertest.New(t, browsertest.Options{Timeout: 120 * time.Second}) // room for a loaded CI machine; a pass takes about 10 s

	b.Do("open the console", chromedp.Navigate(s.url+"/ui/runs"), chromedp.WaitVisible(chromedp.ID("token")))
	b.Screenshot("login")
	b.Do("log in", chromedp.SendKeys(chromedp.ID("token"), testToken), chromedp.Submit(chromedp.ID("token")),
		chromedp.WaitVisible(chromedp.CSS("#runs")))

	id := s.postRun(t, `count <script>alert("no")</script>`)
	row := chromedp.CSS(`tr.run.running a[href="/ui/runs/` + id + `"]`)
	b.Do("see the run appear in the live list", chromedp.WaitVisible(row))
	b.Screenshot("runs")

	b.Do("open the run", chromedp.Click(row), chromedp.WaitVisible(chromedp.ID("cancel")))
	var live, prompt string
	waitText(t, b, "the answer to stream", "#live", func(s string) bool { return strings.Count(s, "tick") >= 3 }, &live)
	b.Do("read the prompt", browsertest.Into(chromedp.Text(chromedp.ID("prompt")), &prompt))
	if prompt != `count <script>alert("no")</script>` {
		t.Errorf("prompt shown as %q", prompt)
	}
	b.Screenshot("run-streaming")

	b.Do("cancel the run", chromedp.Click(chromedp.ID("cancel")), chromedp.WaitVisible(chromedp.ID("notice")))
	var status string
	waitText(t, b, "the run to show cancelled", "#status", func(s string) bool { return s == "cancelled" }, &status)
	if run, err := s.store.Get(context.Background(), id); err != nil || run.Status != runstore.Cancelled {
		t.Errorf("stored run: %v %v, want cancelled", run.Status, err)
	}
	b.Screenshot("run-cancelled")

	b.Do("open the cron jobs", chromedp.Navigate(s.url+"/ui/cron"), chromedp.WaitVisible(chromedp.CSS(`a[href="/ui/cron/nightly-check"]`)))
	b.Screenshot("cron")
	var history string
	for deadline := time.Now().Add(20 * time.Second); ; {
		b.Do("open the job's history", chromedp.Navigate(s.url+"/ui/cron/nightly-check"), chromedp.WaitVisible(chromedp.CSS("h1")),
			browsertest.Into(chromedp.Text(chromedp.CSS("main")), &history))
		if strings.Contains(history, "the build is green") || time.Now().After(deadline) {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	if !strings.Contains(history, "the build is green") {
		t.Fatalf("the job's history shows no run:\n%s", history)
	}
	b.Screenshot("cron-history")
	var stderr string
	b.Do("open a run's logs", chromedp.Click(chromedp.CSS(`table.history a`)), chromedp.WaitVisible(chromedp.ID("stderr")),
		browsertest.Into(chromedp.Text(chromedp.ID("stderr")), &stderr))
	if stderr != "1 warning" {
		t.Errorf("the logs page shows stderr %q", stderr)
	}

	b.Do("open the quota", chromedp.Navigate(s.url+"/ui/quota"), chromedp.WaitVisible(chromedp.ID("gauges")))
	b.Screenshot("quota")
	b.Do("open the files", chromedp.Navigate(s.url+"/ui/files/proj/src/"), chromedp.WaitVisible(chromedp.CSS(`a[href="/ui/files/proj/src/main.go"]`)))
	b.Screenshot("files")

	b.Allow(`404 .*/ui/runs/no-such-run$`)
	var detail string
	b.Do("open a run that does not exist", chromedp.Navigate(s.url+"/ui/runs/no-such-run"), browsertest.Into(chromedp.Text(chromedp.ID("detail")), &detail))
	if !strings.Contains(detail, "No run has the id no-such-run") {
		t.Errorf("the 404 page says %q", detail)
	}
}

// waitText polls the text of the element sel until ok accepts it.
func waitText(t *testing.T, b *browsertest.Browser, what, sel string, ok func(string) bool, out *string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b.Do("read "+sel, browsertest.Into(chromedp.Text(chromedp.CSS(sel)), out))
		if ok(*out) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: %s is %q", what, sel, *out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
