package api

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

func TestFilesRoundTrip(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "", setup{})
	data := []byte{0, 1, 2, 255, 'x', '\n'}
	var done fileDone
	resp, body := h.do("PUT", "/files/proj/sub/data.bin", data, &done)
	wantStatus(t, resp, body, http.StatusOK)
	if done.Size != int64(len(data)) || done.Path != "proj/sub/data.bin" {
		t.Errorf("put %s", body)
	}
	resp, body = h.do("GET", "/files/proj/sub/data.bin", nil, nil)
	wantStatus(t, resp, body, http.StatusOK)
	if string(body) != string(data) {
		t.Errorf("read back %q", body)
	}
	var ls listing
	resp, body = h.do("GET", "/files/proj", nil, &ls)
	wantStatus(t, resp, body, http.StatusOK)
	if len(ls.Entries) != 1 || ls.Entries[0] != (workspace.Entry{Name: "sub", Type: "dir"}) {
		t.Errorf("listing %s", body)
	}
	resp, body = h.do("GET", "/files", nil, &ls)
	wantStatus(t, resp, body, http.StatusOK)
	if ls.Path != "/" || len(ls.Entries) != 1 {
		t.Errorf("root listing %s", body)
	}
	resp, body = h.do("DELETE", "/files/proj/sub", nil, nil)
	wantStatus(t, resp, body, http.StatusBadRequest)
	resp, body = h.do("PUT", "/files/proj/sub", "x", nil)
	wantStatus(t, resp, body, http.StatusBadRequest)
	resp, body = h.do("DELETE", "/files/proj/sub/data.bin", nil, nil)
	wantStatus(t, resp, body, http.StatusOK)
	resp, body = h.do("DELETE", "/files/proj/sub/data.bin", nil, nil)
	wantStatus(t, resp, body, http.StatusNotFound)
	resp, body = h.do("GET", "/files/nothing", nil, nil)
	wantStatus(t, resp, body, http.StatusNotFound)
	// No upload leftovers.
	entries, _ := os.ReadDir(filepath.Join(h.root, "proj", "sub"))
	if len(entries) != 0 {
		t.Errorf("left %v", entries)
	}
}

func TestFilesRefuseEscapes(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "", setup{})
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s3cret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(h.root, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(h.root, "secret-link")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ method, path string }{
		{"GET", "/files/out/secret"},
		{"GET", "/files/secret-link"},
		{"PUT", "/files/out/new"},
		{"DELETE", "/files/out/secret"},
		{"GET", "/files/a%2F..%2F..%2Fetc%2Fpasswd"},
		{"PUT", "/files/x%5C..%5Cy"},
	} {
		var e errorBody
		resp, body := h.do(tc.method, tc.path, "data", &e)
		wantStatus(t, resp, body, http.StatusBadRequest)
		if e.Field != "path" || strings.Contains(string(body), "s3cret") {
			t.Errorf("%s %s: %s", tc.method, tc.path, body)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); err == nil {
		t.Error("a file was written outside the root")
	}
	if _, err := os.Stat(filepath.Join(outside, "secret")); err != nil {
		t.Error("a file outside the root was deleted")
	}
	// A path with ".." is cleaned by the mux into a redirect, never served.
	req := httptest.NewRequest("GET", "/files/../etc/passwd", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	rec := httptest.NewRecorder()
	mux := http.NewServeMux()
	h.srv.Register(mux)
	mux.ServeHTTP(rec, req)
	if rec.Code == http.StatusOK {
		t.Errorf("traversal served: %d %s", rec.Code, rec.Body)
	}
}

func TestHealthStatusMetrics(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "", setup{})
	var health map[string]any
	resp, body := h.doWith(t.Context(), "GET", "/healthz", nil, &health, "")
	wantStatus(t, resp, body, http.StatusOK)
	if health["ok"] != true || health["adapter"] != "claude" {
		t.Errorf("healthz %s", body)
	}
	h.do("POST", "/run", map[string]any{"prompt": "hi"}, nil)
	var st statusAnswer
	resp, body = h.do("GET", "/status", nil, &st)
	wantStatus(t, resp, body, http.StatusOK)
	if st.Adapter != "claude" || st.Queued != 0 || st.Running != 0 || st.Runs == nil || st.BusyWorkspaces == nil {
		t.Errorf("status %s", body)
	}
	resp, body = h.do("GET", "/metrics", nil, nil)
	wantStatus(t, resp, body, http.StatusOK)
	for _, want := range []string{
		`albert_code_runs_total{backend="claude",status="completed"} 1`,
		`albert_code_http_requests_total{code="200",route="POST /run"} 1`,
		`albert_code_run_tokens_total{backend="claude",direction="input"} 24`,
		"albert_code_runs_running 0",
		"albert_code_run_duration_seconds_bucket",
		"go_goroutines",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}
