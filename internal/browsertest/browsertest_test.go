package browsertest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// page serves a page whose script logs an error, asks for a missing file and for
// a host outside the machine, and a clean page.
func page(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /bad", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><title>bad</title><script src="/bad.js"></script><p id=done>bad</p>`))
	})
	mux.HandleFunc("GET /bad.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write([]byte(`console.error("boom", 42); fetch("/missing"); fetch("http://outside.example/x").catch(function(){});`))
	})
	mux.HandleFunc("GET /clean", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><title>clean</title><h1 id=done>clean</h1>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestBrowserRecordsConsoleErrorsAndFailedRequests(t *testing.T) {
	srv := page(t)
	b := New(t, Options{Timeout: 30 * time.Second})
	b.Do("open the bad page", chromedp.Navigate(srv.URL+"/bad"), chromedp.WaitVisible(chromedp.ID("done")))
	want := []string{"console.error: boom 42", "request failed: 404 " + srv.URL + "/missing", "outside.example"}
	var got []string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		got = b.Problems()
		if allFound(got, want) {
			break
		}
	}
	if !allFound(got, want) {
		t.Fatalf("problems = %q, want each of %q", got, want)
	}
	b.Allow(".")
	if p := b.Problems(); len(p) != 0 {
		t.Errorf("after Allow(\".\"), problems = %q", p)
	}
}

func allFound(got, want []string) bool {
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, w) }) {
			return false
		}
	}
	return true
}

func TestBrowserSavesScreenshotsInTheNamedFolder(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(ScreenshotsEnv, filepath.Join(dir, "shots"))
	srv := page(t)
	b := New(t, Options{Timeout: 30 * time.Second})
	b.Do("open the clean page", chromedp.Navigate(srv.URL+"/clean"), chromedp.WaitVisible(chromedp.ID("done")))
	path := b.Screenshot("clean page")
	if filepath.Dir(path) != filepath.Join(dir, "shots") || !strings.HasSuffix(path, "-clean_page.png") {
		t.Errorf("screenshot path = %s, want <dir>/shots/<test>-clean_page.png", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Errorf("screenshot is not a PNG (%d bytes)", len(data))
	}
	if p := b.Problems(); len(p) != 0 {
		t.Errorf("a clean page has problems: %q", p)
	}
}

func TestFindNamesTheMissingBinary(t *testing.T) {
	t.Setenv(ChromiumEnv, filepath.Join(t.TempDir(), "no-such-chromium"))
	_, err := Find()
	if err == nil || !strings.Contains(err.Error(), ChromiumEnv) || !strings.Contains(err.Error(), "no-such-chromium") {
		t.Errorf("Find() error = %v, want one naming %s and the path", err, ChromiumEnv)
	}
}
