package console

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
)

func TestFilesListAndDownloadButRefuseLinksAndEscapes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	f.login()
	ws := filepath.Join(f.root, "proj")
	outside := filepath.Join(filepath.Dir(f.root), "secret.txt")
	for path, content := range map[string]string{filepath.Join(ws, "src", "main.go"): "package main\n", outside: "secret"} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(ws, "leak")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws, "src"), filepath.Join(ws, "srclink")); err != nil {
		t.Fatal(err)
	}
	_, body := f.get("/ui/files/proj/")
	for _, want := range []string{`href="/ui/files/proj/src/"`, "leak <span", "link, not followed"} {
		if !strings.Contains(body, want) {
			t.Errorf("listing lacks %q:\n%s", want, body)
		}
	}
	resp, content := f.get("/ui/files/proj/src/main.go")
	if resp.StatusCode != http.StatusOK || content != "package main\n" ||
		resp.Header.Get("Content-Disposition") != `attachment; filename=main.go` {
		t.Errorf("download: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Disposition"), content)
	}
	for path, want := range map[string]int{
		"/ui/files/proj/leak":                     http.StatusBadRequest, // Root.Rel: a link leading out of the root
		"/ui/files/proj/srclink/main.go":          http.StatusForbidden,
		"/ui/files/proj/nope.txt":                 http.StatusNotFound,
		"/ui/files/proj/%2e%2e/%2e%2e/secret.txt": http.StatusBadRequest,
	} {
		resp, body := f.get(path)
		if resp.StatusCode != want || strings.Contains(body, "secret") && !strings.Contains(body, "secret.txt") {
			t.Errorf("GET %s: %d, want %d\n%s", path, resp.StatusCode, want, body)
		}
	}
}

// fakeCron is a scheduler with one job and its history.
type fakeCron struct{ fired time.Time }

func (c fakeCron) Jobs() []cron.JobState {
	sch, _ := cron.ParseSchedule("0 3 * * *", time.UTC, c.fired)
	return []cron.JobState{{Job: &cron.Job{Name: "nightly", Schedule: sch, Workspace: "proj"}, Next: c.fired.Add(24 * time.Hour)}}
}

func (c fakeCron) History(job string, limit int) ([]cron.Summary, error) {
	if job != "nightly" {
		return nil, fmt.Errorf("%w: %q", cron.ErrNoSuchJob, job)
	}
	code := 0
	return []cron.Summary{{Job: job, Status: cron.StatusOK, FiredAt: c.fired, ExitCode: &code, Text: "all <green>", HistoryDir: "/h/x"}}, nil
}

func (c fakeCron) RunLog(job string, fired time.Time, limit int64) (cron.RunLogs, error) {
	if !fired.Equal(c.fired) {
		return cron.RunLogs{}, os.ErrNotExist
	}
	return cron.RunLogs{Stdout: `{"type":"result"}`, Stderr: "a warning", Result: "all green"}, nil
}

func TestCronJobsHistoryAndLogs(t *testing.T) {
	t.Parallel()
	fired := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	f := newFixture(t, func(o *Options) { o.Cron = fakeCron{fired: fired} })
	f.login()
	_, body := f.get("/ui/cron")
	if !strings.Contains(body, `href="/ui/cron/nightly"`) || !strings.Contains(body, "2026-12-02 03:00:00") {
		t.Errorf("jobs page:\n%s", body)
	}
	_, body = f.get("/ui/cron/nightly")
	if !strings.Contains(body, "all &lt;green&gt;") || !strings.Contains(body, `/ui/cron/nightly/log?at=2026-12-01T03%3a00%3a00Z`) {
		t.Errorf("history page:\n%s", body)
	}
	resp, body := f.get("/ui/cron/nightly/log?at=2026-12-01T03:00:00Z")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "a warning") || !strings.Contains(body, "all green") {
		t.Errorf("log page: %d\n%s", resp.StatusCode, body)
	}
	for path, want := range map[string]int{"/ui/cron/weekly": 404, "/ui/cron/nightly/log?at=2020-01-01T00:00:00Z": 404, "/ui/cron/nightly/log?at=yesterday": 400} {
		if resp, body := f.get(path); resp.StatusCode != want || !strings.Contains(body, "<h1>") {
			t.Errorf("GET %s: %d, want %d with a page", path, resp.StatusCode, want)
		}
	}
}

func TestCronOffSaysSo(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	f.login()
	if _, body := f.get("/ui/cron"); !strings.Contains(body, "Cron is off") {
		t.Errorf("no word of cron being off:\n%s", body)
	}
}

// The gauges change level at the footer's thresholds: 80 % warns, 95 % is critical.
func TestQuotaGaugesMarkThe80And95PercentThresholds(t *testing.T) {
	t.Parallel()
	snap := ratelimit.Snapshot{Model: "albert-large", LimitSource: "tier exp",
		Limits: ratelimit.Limits{RPM: 100, TPM: 1000, RPD: 100, TPD: 1000}, Requests: 79, Tokens: 800, DayRequests: 95, DayTokens: 1200,
		Exhausted: &ratelimit.Exhausted{Model: "albert-large", RecordedAt: time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)}}
	f := newFixture(t, func(o *Options) { o.Quota = func(time.Time) []ratelimit.Snapshot { return []ratelimit.Snapshot{snap} } })
	f.login()
	_, body := f.get("/ui/quota/gauges", "X-Console", "1")
	for _, want := range []string{
		`<div class="gauge ok">`, `79 / 100 (79 %)`,
		`<div class="gauge warn">`, `800 / 1000 (80 %)`,
		`<div class="gauge critical">`, `95 / 100 (95 %)`, `1200 / 1000 (100 %)`,
		`low="80" high="95"`, "Daily quota exhausted at 2026-12-01 14:00:00",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("gauges lack %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<html") {
		t.Errorf("the gauges fragment is a whole page")
	}
}

func TestQuotaOffForACLIAgentSaysWhy(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	f.login()
	if _, body := f.get("/ui/quota"); !strings.Contains(body, "CLI agent") {
		t.Errorf("quota page without a source:\n%s", body)
	}
}

func TestNewRefusesAConsoleWithoutToken(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	_, err := New(Options{Store: f.store, Root: nil})
	if err == nil {
		t.Fatal("New without a root succeeded")
	}
	_, err = New(Options{Store: f.store, Root: mustRoot(t, f.root)})
	if err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("New without tokens: %v", err)
	}
}
