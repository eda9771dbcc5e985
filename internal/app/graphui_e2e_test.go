package app

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestGraphUIServesTheMapBehindItsToken starts `graph ui` on a repository with no
// index, trades the printed URL's token for a cookie, builds the index from the
// page's endpoint, reads the map, and stops the server with an interrupt.
func TestGraphUIServesTheMapBehindItsToken(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	repo := graphRepo(t, h)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := h.command(ctx, "graph", "--repo", repo, "ui")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no URL printed: %v; stderr %s", err, stderr.String())
	}
	m := regexp.MustCompile(`^map of (.+) at (http://127\.0\.0\.1:\d+)/\?token=([0-9a-f]{48})\n$`).FindStringSubmatch(line)
	if m == nil || m[1] != repo {
		t.Fatalf("printed %q", line)
	}
	base, token := m[2], m[3]
	client := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, path string, cookie *http.Cookie) (*http.Response, string) {
		req, _ := http.NewRequestWithContext(ctx, method, base+path, nil)
		req.Header.Set("X-Albert-Map", "1")
		if cookie != nil {
			req.AddCookie(cookie)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(body)
	}
	if res, _ := do("GET", "/api/status", nil); res.StatusCode != http.StatusForbidden {
		t.Fatalf("without the token: %d, want 403", res.StatusCode)
	}
	res, _ := do("GET", "/?token="+token, nil)
	if res.StatusCode != http.StatusSeeOther || len(res.Cookies()) != 1 {
		t.Fatalf("first visit: %d, cookies %v", res.StatusCode, res.Cookies())
	}
	cookie := res.Cookies()[0]
	var st struct {
		Indexed  bool `json:"indexed"`
		CanBuild bool `json:"can_build"`
		How      string
	}
	_, body := do("GET", "/api/status", cookie)
	if err := json.Unmarshal([]byte(body), &st); err != nil || st.Indexed || !st.CanBuild || !strings.Contains(st.How, "graph index "+repo) {
		t.Fatalf("status before the index: %s (%v)", body, err)
	}
	if res, body := do("POST", "/api/index", cookie); res.StatusCode != http.StatusAccepted {
		t.Fatalf("build: %d %s", res.StatusCode, body)
	}
	for !st.Indexed {
		if ctx.Err() != nil {
			t.Fatalf("the index was not built in time; stderr %s", stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
		_, body = do("GET", "/api/status", cookie)
		if err := json.Unmarshal([]byte(body), &st); err != nil || strings.Contains(body, "build_error") {
			t.Fatalf("status: %s", body)
		}
	}
	res, body = do("GET", "/api/symbol?name=Shape", cookie)
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "example.com/fixture/shapes.Square") {
		t.Fatalf("Shape's neighbourhood: %d %s", res.StatusCode, body)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("graph ui after an interrupt: %v; stderr %s", err, stderr.String())
	}
}

func TestGraphUIRefusesAnAddressItCannotListenOn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	repo := graphRepo(t, h)
	r := h.run("graph", "--repo", repo, "ui", "--addr", "256.0.0.1:1")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "listen on 256.0.0.1:1") || !strings.Contains(r.stderr, "--addr") {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
}

// TestGraphUIOpenStartsTheBrowserOnThePrintedURL: --open runs the desktop's
// opener (xdg-open here, a script that records its argument) on the URL printed.
func TestGraphUIOpenStartsTheBrowserOnThePrintedURL(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	repo := graphRepo(t, h)
	bin := filepath.Join(h.work, "bin")
	opened := filepath.Join(h.work, "opened")
	h.writeUnder(bin, "xdg-open", "#!/bin/sh\nprintf '%s' \"$1\" > "+opened+".tmp && mv "+opened+".tmp "+opened+"\n")
	if err := os.Chmod(filepath.Join(bin, "xdg-open"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := h.command(ctx, "graph", "--repo", repo, "ui", "--open")
	for i, kv := range cmd.Env {
		if strings.HasPrefix(kv, "PATH=") {
			cmd.Env[i] = "PATH=" + bin + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSpace(line[strings.LastIndex(line, " at ")+4:])
	for {
		got, err := os.ReadFile(opened)
		if err == nil {
			if string(got) != url {
				t.Fatalf("opened %q, want the printed %q", got, url)
			}
			return
		}
		if ctx.Err() != nil {
			t.Fatal("the browser was never opened")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
