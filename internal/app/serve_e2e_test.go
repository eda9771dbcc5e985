package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// lockedBuffer is a bytes.Buffer the process and the test can share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// freePort finds a port on 127.0.0.1 nobody listens on (a short race with other
// programs, which tests on one machine tolerate).
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startServe starts `albert-code serve` from h with env added to the settings
// every end-to-end test shares (loopback, a workspace root, a run store), and
// returns the process, its stderr and a channel that receives its exit.
func startServe(ctx context.Context, t *testing.T, h *harness, env ...string) (*exec.Cmd, *lockedBuffer, <-chan error) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(h.work, "root"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := h.command(ctx, "serve")
	cmd.Env = append(append(cmd.Env, "ALBERT_CODE_API_MODE_HOST=127.0.0.1",
		"ALBERT_CODE_WORKSPACE="+filepath.Join(h.work, "root"), "ALBERT_CODE_RUN_STORE="+filepath.Join(h.home, "runs.db")), env...)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return cmd, stderr, exited
}

// stopServe sends SIGTERM and waits, at most limit, for a clean exit.
func stopServe(t *testing.T, cmd *exec.Cmd, exited <-chan error, stderr *lockedBuffer, limit time.Duration) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("serve exited with %v after SIGTERM:\n%s", err, stderr.String())
		}
	case <-time.After(limit):
		t.Fatalf("serve did not stop after SIGTERM:\n%s", stderr.String())
	}
}

// TestServeEndToEnd starts the real binary with the native adapter against the fake
// model, calls /healthz and /run, and stops it with SIGTERM.
func TestServeEndToEnd(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakemodel.Turn{Text: []string{"Hello from", " the server."}})
	port := freePort(t)
	token := "e2e-token-0123456789abcdef"
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd, stderr, exited := startServe(ctx, t, h, "ALBERT_CODE_API_MODE=1",
		"ALBERT_CODE_API_MODE_PORT="+strconv.Itoa(port), "ALBERT_CODE_API_MODE_TOKEN="+token)
	base := "http://127.0.0.1:" + strconv.Itoa(port)

	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"adapter":"native"`) {
				t.Fatalf("healthz %d %s", resp.StatusCode, body)
			}
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("serve exited before answering: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve never answered /healthz:\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}

	post := func(tok string) (int, map[string]any) {
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/run", strings.NewReader(`{"prompt":"say hello","workspace":"proj"}`))
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	if code, _ := post("wrong-token"); code != http.StatusUnauthorized {
		t.Errorf("a wrong token got %d", code)
	}
	code, out := post(token)
	if code != http.StatusOK || out["text"] != "Hello from the server." || out["exitCode"] != 0.0 {
		t.Errorf("/run: %d %v\n%s", code, out, stderr.String())
	}

	stopServe(t, cmd, exited, stderr, 40*time.Second)
	if !strings.Contains(stderr.String(), "stopped") {
		t.Errorf("no stop in the log:\n%s", stderr.String())
	}
}

// TestServeReportsEveryProblemAtOnce: a bad configuration stops the server before
// it listens, naming each variable at fault, with the usage exit code.
func TestServeReportsEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := h.command(ctx, "serve", "--adapter", "nonesuch")
	cmd.Env = append(cmd.Env, "ALBERT_CODE_API_MODE=1", "ALBERT_CODE_API_MODE_PORT=80a", "ALBERT_CODE_TIMEOUT=soon",
		"ALBERT_CODE_WORKSPACE="+h.work)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != ExitUsage {
		t.Fatalf("exit %v, want %d:\n%s", err, ExitUsage, out)
	}
	for _, want := range []string{"3 problem(s)", "ALBERT_CODE_API_MODE_PORT", "ALBERT_CODE_TIMEOUT", "--adapter"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// The server logs the start-up quota warnings once, as every face shows them: here
// the one about a rate-limit state file it had to rebuild. The SIGTERM follows the
// warning within milliseconds, while serve is still starting: it must still end
// cleanly.
func TestServeLogsQuotaWarningsAtStart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.writeHomeFile("ratelimit_state.json", "{not json")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd, stderr, exited := startServe(ctx, t, h, "ALBERT_CODE_API_MODE=1",
		"ALBERT_CODE_API_MODE_PORT="+strconv.Itoa(freePort(t)), "ALBERT_CODE_API_MODE_TOKEN=e2e-token-0123456789abcdef")
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(stderr.String(), "quota: warning:") || !strings.Contains(stderr.String(), "ratelimit_state.json") {
		if time.Now().After(deadline) {
			t.Fatalf("no quota warning at start; stderr:\n%s", stderr.String())
		}
		select {
		case err := <-exited:
			t.Fatalf("serve exited (%v); stderr:\n%s", err, stderr.String())
		case <-time.After(2 * time.Millisecond):
		}
	}
	stopServe(t, cmd, exited, stderr, 40*time.Second)
}
