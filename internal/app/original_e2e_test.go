package app

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// originalHome copies testdata/original-home/.albert-code, a home as the original
// albert-code leaves it, into h's home, with the proxy's address and today's time
// filled in, and returns every file's content as laid out.
func originalHome(t *testing.T, h *harness, proxyURL string) map[string]string {
	t.Helper()
	if err := os.RemoveAll(h.home); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(h.home, os.DirFS(filepath.Join("testdata", "original-home", ".albert-code"))); err != nil {
		t.Fatal(err)
	}
	recorded := time.Now().UTC().Truncate(time.Hour).Format("2006-01-02T15:04:05.000000") // naive, as Python wrote it
	for rel, from := range map[string]string{".env": "PROXY_URL", "throttle_state.json": "RECORDED_AT"} {
		to := proxyURL
		if from == "RECORDED_AT" {
			to = recorded
		}
		p := filepath.Join(h.home, rel)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), from, to)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return homeFiles(t, h.home)
}

func homeFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// forwardProxy is an HTTP proxy that sends every request to target: the client
// asks it for http://fakemodel.invalid/..., a host no resolver knows, so an answer
// proves the request went through the proxy.
func forwardProxy(t *testing.T, target string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	to, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Host != "fakemodel.invalid" {
			http.Error(w, "proxy: unexpected host "+r.URL.Host, http.StatusBadGateway)
			return
		}
		n.Add(1)
		out := r.Clone(r.Context())
		out.RequestURI = ""
		out.URL.Scheme, out.URL.Host = to.Scheme, to.Host
		resp, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// A home laid out exactly as the original leaves it runs with no error and loses
// nothing: -p works through the proxies of its .env, the first run imports its
// session, migrate says what it did, the imported session resumes, and every file
// of the original is still there, unchanged.
func TestOriginalHomeRunsAndLosesNothing(t *testing.T) {
	h := newHarness(t, text("Bonjour."), text("Reprise."))
	proxy, proxied := forwardProxy(t, h.srv.URL())
	before := originalHome(t, h, proxy.URL)

	r := h.run("--prompt", "bonjour", "--base-url", "http://fakemodel.invalid/v1", "--output", "json")
	if r.code != 0 {
		t.Fatalf("first run exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if s := h.summary(r); s.Text != "Bonjour." {
		t.Errorf("answer = %q", s.Text)
	}
	if proxied.Load() == 0 {
		t.Error("the model call did not go through HTTP_PROXY from the original's .env")
	}
	for _, want := range []string{
		"reviewer.toml:8", `"theme"`, // an unknown key: a warning naming the file and the key
		`"system_prompt_id"`,
		"imported 1 session(s) of the original albert-code",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("first run's stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "explorer.toml") || strings.Contains(r.stderr, "display_name") {
		t.Errorf("mapped keys reported as ignored:\n%s", r.stderr)
	}

	m := h.run("migrate")
	if m.code != 0 {
		t.Fatalf("migrate exit %d\nstdout: %s\nstderr: %s", m.code, m.stdout, m.stderr)
	}
	for _, want := range []string{
		filepath.Join(h.home, "config.toml") + " is read in place",
		"profiles   2 in " + filepath.Join(h.home, "agents"),
		"sessions   0 imported", "1 imported before",
		"the daily quota of openai/gpt-oss-120b is recorded as exhausted",
		"proxies    HTTP_PROXY, HTTPS_PROXY, NO_PROXY from " + filepath.Join(h.home, ".env"),
	} {
		if !strings.Contains(m.stdout, want) {
			t.Errorf("migrate's report lacks %q:\n%s", want, m.stdout)
		}
	}

	res := h.run("--resume", "9f8e7d6c", "--prompt", "continue", "--output", "streaming")
	if res.code != 0 {
		t.Fatalf("resume exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	lines := 0
	for sc := bufio.NewScanner(strings.NewReader(res.stdout)); sc.Scan(); lines++ {
		if !json.Valid(sc.Bytes()) {
			t.Fatalf("--output streaming printed a line that is not JSON: %q", sc.Text())
		}
	}
	if lines < 2 {
		t.Errorf("--output streaming printed %d lines, want stream-json events:\n%s", lines, res.stdout)
	}
	msgs := h.requestMessages(len(h.srv.Requests()) - 1)
	var history strings.Builder
	for _, msg := range msgs {
		b, _ := json.Marshal(msg)
		history.Write(b)
	}
	if !strings.Contains(history.String(), "TestFormulaire") || !strings.Contains(history.String(), "continue") {
		t.Errorf("the resumed call does not carry the original session's history:\n%s", history.String())
	}

	// Every file of the original is there, unchanged; the log, which ours shares,
	// only grew.
	after := homeFiles(t, h.home)
	for rel, content := range before {
		if got, ok := after[rel]; !ok {
			t.Errorf("%s of the original was lost", rel)
		} else if got != content && !(rel == filepath.Join("logs", "albert-code.log") && strings.HasPrefix(got, content)) {
			t.Errorf("%s of the original was changed:\n%s\nwas:\n%s", rel, got, content)
		}
	}
}

// Each file of the original that cannot be read is a one-line notice naming it; the
// run goes on with the rest, and the file stays as it was.
func TestUnreadableOriginalFilesAreNotices(t *testing.T) {
	h := newHarness(t, text("Fait."))
	bad := map[string]string{
		"config.toml":         "active_model = [\n",
		".env":                "this is not a pair\n",
		"agents/broken.toml":  "safety = \"reckless\"\n",
		"throttle_state.json": "{\"model_name\": ",
		"logs/session/session_20260313_090000_0badf00d/meta.json": "{not json",
	}
	for rel, content := range bad {
		h.writeHomeFile(rel, content)
	}
	r := h.run("--prompt=bonjour") // the original's spelling, with its value attached
	if r.code != 0 || !strings.Contains(r.stdout, "Fait.") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		filepath.Join(h.home, "config.toml"), filepath.Join(h.home, ".env") + ":1",
		filepath.Join(h.home, "agents", "broken.toml") + ":1", filepath.Join(h.home, "throttle_state.json"),
		"session_20260313_090000_0badf00d",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr names no %s:\n%s", want, r.stderr)
		}
	}
	for rel, content := range bad {
		if rel == "throttle_state.json" {
			rel += ".unreadable" // rebuilt empty, its bytes kept beside it
		}
		if got, err := os.ReadFile(filepath.Join(h.home, rel)); err != nil || string(got) != content {
			t.Errorf("%s changed: %q, %v", rel, got, err)
		}
	}
}
