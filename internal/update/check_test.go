package update

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeFeed answers GET /repos/etalab-ia/albert-code/releases/latest as GitHub does,
// with whatever body and status the test sets, and counts the requests.
type fakeFeed struct {
	*httptest.Server
	mu       sync.Mutex
	status   int
	body     string
	requests atomic.Int32
	agent    atomic.Value
}

func newFakeFeed(t *testing.T, body string) *fakeFeed {
	f := &fakeFeed{status: http.StatusOK, body: body}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /repos/etalab-ia/albert-code/releases/latest", func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		f.agent.Store(r.Header.Get("User-Agent"))
		f.mu.Lock()
		status, body := f.status, f.body
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	})
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

func (f *fakeFeed) set(status int, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status, f.body = status, body
}

func (f *fakeFeed) feedURL() string { return f.URL + "/repos/etalab-ia/albert-code/releases/latest" }

// clock is an injected clock the test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func release(tag string) string {
	return `{"tag_name": "` + tag + `", "html_url": "https://github.com/etalab-ia/albert-code/releases/tag/` + tag + `", "name": "x", "assets": []}`
}

func newChecker(t *testing.T, f *fakeFeed, current string, clk *clock) (*Checker, *bytes.Buffer) {
	var logs bytes.Buffer
	return &Checker{
		Feed:      f.feedURL(),
		Current:   current,
		CacheFile: filepath.Join(t.TempDir(), CacheFileName),
		UserAgent: "albert-code/" + current,
		Now:       clk.now,
		Logger:    slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}, &logs
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestNewerReportsOnlyANewerRelease(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		current, latest string
		want            bool
	}{
		{"v0.9.1", "v0.10.0", true},
		{"v0.3.0-rc.2", "v0.3.0", true},
		{"v0.2.1-0.20261201120000-abcdef123456", "v0.2.1", true},
		{"v0.10.0", "v0.9.1", false},
		{"v0.3.0", "v0.3.0", false},
		{"v0.3.0", "v0.3.1-rc.1", true},
		{"v1.0.0", "v1.0.0-rc.1", false},
	} {
		f := newFakeFeed(t, release(tc.latest))
		c, _ := newChecker(t, f, tc.current, &clock{t: time.Unix(1_800_000_000, 0)})
		rel, ok := c.Newer(testCtx(t))
		if ok != tc.want {
			t.Errorf("current %s, latest %s: newer = %v, want %v", tc.current, tc.latest, ok, tc.want)
		}
		if ok && (rel.Tag != tc.latest || !strings.HasSuffix(rel.URL, "/tag/"+tc.latest)) {
			t.Errorf("current %s: release = %+v, want tag %s and its page", tc.current, rel, tc.latest)
		}
	}
}

func TestNewerSendsUserAgentAndAsksOncePerDay(t *testing.T) {
	t.Parallel()
	f := newFakeFeed(t, release("v0.3.0"))
	clk := &clock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	c, _ := newChecker(t, f, "v0.2.0", clk)
	ctx := testCtx(t)

	if _, ok := c.Newer(ctx); !ok {
		t.Fatal("first check: want v0.3.0 reported")
	}
	if got := f.agent.Load(); got != "albert-code/v0.2.0" {
		t.Errorf("User-Agent = %v, want albert-code/v0.2.0 (GitHub refuses requests without one)", got)
	}
	// Within the day: the cached answer, no request, even from a new process.
	f.set(http.StatusOK, release("v0.4.0"))
	clk.advance(23 * time.Hour)
	again := *c
	rel, ok := again.Newer(ctx)
	if !ok || rel.Tag != "v0.3.0" {
		t.Errorf("after 23 h: %+v %v, want the cached v0.3.0", rel, ok)
	}
	if n := f.requests.Load(); n != 1 {
		t.Errorf("after 23 h: %d requests, want 1", n)
	}
	// A day later the feed is asked again and its new answer wins.
	clk.advance(2 * time.Hour)
	rel, ok = c.Newer(ctx)
	if !ok || rel.Tag != "v0.4.0" {
		t.Errorf("after 25 h: %+v %v, want v0.4.0", rel, ok)
	}
	if n := f.requests.Load(); n != 2 {
		t.Errorf("after 25 h: %d requests, want 2", n)
	}
}

func TestNewerAsksAgainWhenTheClockWentBack(t *testing.T) {
	t.Parallel()
	f := newFakeFeed(t, release("v0.3.0"))
	clk := &clock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	c, _ := newChecker(t, f, "v0.2.0", clk)
	c.Newer(testCtx(t))
	clk.advance(-48 * time.Hour) // a cache written "in the future" is not trusted
	c.Newer(testCtx(t))
	if n := f.requests.Load(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestFailingOrMalformedFeedIsSilentAndAskedOncePerDay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body, logged string
		status             int
	}{
		{"server error", `{"message": "boom"}`, "status 500", http.StatusInternalServerError},
		{"not found", `{"message": "Not Found"}`, "status 404", http.StatusNotFound},
		{"rate limited", `{"message": "API rate limit exceeded"}`, "status 403", http.StatusForbidden},
		{"not JSON", `<html>proxy login</html>`, "malformed answer", http.StatusOK},
		{"truncated", `{"tag_name": "v0.3`, "malformed answer", http.StatusOK},
		{"no tag", `{"html_url": "https://example.org"}`, "tag_name", http.StatusOK},
		{"tag not a version", `{"tag_name": "nightly"}`, "tag_name", http.StatusOK},
		{"tag of the wrong type", `{"tag_name": 3}`, "malformed answer", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeFeed(t, tc.body)
			f.set(tc.status, tc.body)
			clk := &clock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
			c, logs := newChecker(t, f, "v0.2.0", clk)
			if rel, ok := c.Newer(testCtx(t)); ok {
				t.Fatalf("newer = %+v, want nothing", rel)
			}
			if !strings.Contains(logs.String(), "level=DEBUG") || !strings.Contains(logs.String(), tc.logged) {
				t.Errorf("debug log = %q, want a DEBUG line mentioning %q", logs.String(), tc.logged)
			}
			clk.advance(time.Hour)
			c.Newer(testCtx(t))
			if n := f.requests.Load(); n != 1 {
				t.Errorf("%d requests within the day, want 1", n)
			}
		})
	}
}

func TestFailedRequestKeepsTheLastGoodAnswer(t *testing.T) {
	t.Parallel()
	f := newFakeFeed(t, release("v0.3.0"))
	clk := &clock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	c, _ := newChecker(t, f, "v0.2.0", clk)
	c.Newer(testCtx(t))
	f.set(http.StatusBadGateway, "")
	clk.advance(25 * time.Hour)
	c.Newer(testCtx(t)) // fails, keeps v0.3.0
	clk.advance(time.Hour)
	rel, ok := c.Newer(testCtx(t))
	if !ok || rel.Tag != "v0.3.0" {
		t.Errorf("after a failed request: %+v %v, want the last good v0.3.0", rel, ok)
	}
	if n := f.requests.Load(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestDevelopmentBuildNeverAsks(t *testing.T) {
	t.Parallel()
	f := newFakeFeed(t, release("v0.3.0"))
	c, logs := newChecker(t, f, "dev", &clock{t: time.Now()})
	if _, ok := c.Newer(testCtx(t)); ok {
		t.Error("a dev build was told of an update")
	}
	if n := f.requests.Load(); n != 0 {
		t.Errorf("%d requests for a dev build, want 0", n)
	}
	if !strings.Contains(logs.String(), "not a release") {
		t.Errorf("debug log = %q, want the reason", logs.String())
	}
}

func TestUnreadableCacheIsReplaced(t *testing.T) {
	t.Parallel()
	f := newFakeFeed(t, release("v0.3.0"))
	c, _ := newChecker(t, f, "v0.2.0", &clock{t: time.Now()})
	if err := os.WriteFile(c.CacheFile, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Newer(testCtx(t)); !ok {
		t.Fatal("want v0.3.0 reported despite the broken cache")
	}
	data, err := os.ReadFile(c.CacheFile)
	if err != nil || !strings.Contains(string(data), `"tag_name": "v0.3.0"`) {
		t.Errorf("cache = %q, %v; want the new answer", data, err)
	}
}

func TestCacheOfAnotherFeedIsNotUsed(t *testing.T) {
	t.Parallel()
	f := newFakeFeed(t, release("v0.3.0"))
	clk := &clock{t: time.Now()}
	c, _ := newChecker(t, f, "v0.2.0", clk)
	c.Newer(testCtx(t))
	mirror := newFakeFeed(t, release("v0.5.0"))
	c.Feed = mirror.feedURL()
	if rel, ok := c.Newer(testCtx(t)); !ok || rel.Tag != "v0.5.0" {
		t.Errorf("after pointing at a mirror: %+v %v, want the mirror's v0.5.0", rel, ok)
	}
}

func TestSlowFeedIsAbandonedAtTheDeadline(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	var logs bytes.Buffer
	c := &Checker{Feed: srv.URL, Current: "v0.2.0", CacheFile: filepath.Join(t.TempDir(), CacheFileName),
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, ok := c.Newer(ctx); ok {
		t.Error("a feed that never answered reported a release")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Newer took %s past a 200 ms deadline", d)
	}
	if !strings.Contains(logs.String(), "deadline exceeded") {
		t.Errorf("debug log = %q, want the deadline named", logs.String())
	}
}

// BenchmarkNewerFromCache is what every start of the UI pays within the day: one
// small file read, no request.
func BenchmarkNewerFromCache(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(release("v0.3.0")))
	}))
	defer srv.Close()
	c := &Checker{Feed: srv.URL, Current: "v0.2.0", CacheFile: filepath.Join(b.TempDir(), CacheFileName),
		Logger: slog.New(slog.DiscardHandler)}
	ctx := context.Background()
	if _, ok := c.Newer(ctx); !ok {
		b.Fatal("no release reported")
	}
	for b.Loop() {
		if _, ok := c.Newer(ctx); !ok {
			b.Fatal("no release reported")
		}
	}
}
