package app

import (
	"context"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestServeOffersEachWorkspacesGraphMap: serve's console has the code graph map
// of a workspace under /ui/map/NAME/, read from the index in it, behind the
// console's authorization.
func TestServeOffersEachWorkspacesGraphMap(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ws := filepath.Join(h.work, "root", "proj")
	if out, err := exec.Command("mkdir", "-p", filepath.Dir(ws)).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if out, err := exec.Command("cp", "-r", filepath.Join("..", "graph", "golang", "testdata", "fixture"), ws).CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v\n%s", err, out)
	}
	if r := h.run("graph", "index", ws); r.code != ExitOK {
		t.Fatalf("index: exit %d %s", r.code, r.stderr)
	}
	port := freePort(t)
	token := "e2e-map-token-0123456789abcdef"
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd, stderr, exited := startServe(ctx, t, h, "ALBERT_CODE_API_MODE=1",
		"ALBERT_CODE_API_MODE_PORT="+strconv.Itoa(port), "ALBERT_CODE_API_MODE_TOKEN="+token)
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	client := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path, tok string) (int, string, error) {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+path, nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body), nil
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, _, err := get("/healthz", ""); err == nil {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("serve exited before answering: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve never answered:\n%s", stderr.String())
		}
	}
	if code, _, err := get("/ui/map/proj/api/status", ""); err != nil || code == http.StatusOK {
		t.Fatalf("the map without a login: %d %v", code, err)
	}
	code, body, err := get("/ui/map/proj/api/symbol?name=Shape", token)
	if err != nil || code != http.StatusOK || !strings.Contains(body, "example.com/fixture/shapes.Square") {
		t.Fatalf("Shape's neighbourhood: %d %v %s\n%s", code, err, body, stderr.String())
	}
	if code, body, _ := get("/ui/map/nope/api/status", token); code != http.StatusNotFound || !strings.Contains(body, "nope") {
		t.Fatalf("an unknown workspace: %d %s", code, body)
	}
	stopServe(t, cmd, exited, stderr, 40*time.Second)
}
