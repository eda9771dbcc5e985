package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// replica is one `albert-code serve` process.
type replica struct {
	cmd  *exec.Cmd
	base string
	log  string
	// exited is closed once the process is reaped, waitErr set before: a closed
	// channel, since both kill and the deferred stop wait on it (a value sent once
	// left the second waiter blocked for ever, which hung the bench).
	exited  chan struct{}
	waitErr error
}

// startReplica starts serve in dir/name with the shared workspace root dir/ws and the
// store env names (a run store file, or the database URL).
func startReplica(ctx context.Context, bin, dir, name, modelURL string, store ...string) (*replica, error) {
	home := filepath.Join(dir, name)
	for _, d := range []string{filepath.Join(home, ".albert-code"), filepath.Join(home, "tmp"), filepath.Join(home, "xdg", "albert-code"), filepath.Join(dir, "ws")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	// The throttler would space the fake model's requests by the model's published
	// rate limit: this measures the store, not the provider's limits.
	if err := os.WriteFile(filepath.Join(home, "xdg", "albert-code", "config.toml"), []byte("[rate_limits]\nenabled = false\n"), 0o644); err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, "serve")
	cmd.Dir = home
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "HOME=" + home, "TMPDIR=" + filepath.Join(home, "tmp"),
		"ALBERT_CODE_HOME=" + filepath.Join(home, ".albert-code"), "XDG_CONFIG_HOME=" + filepath.Join(home, "xdg"),
		"ALBERT_API_KEY=replicabench", "ALBERT_CODE_BASE_URL=" + modelURL, "ALBERT_CODE_NO_UPDATE_CHECK=1",
		"ALBERT_CODE_API_MODE=1", "ALBERT_CODE_API_MODE_HOST=127.0.0.1", "ALBERT_CODE_API_MODE_PORT=" + strconv.Itoa(port),
		"ALBERT_CODE_API_MODE_TOKEN=" + token, "ALBERT_CODE_ADAPTER=native", "ALBERT_CODE_AVAILABLE_MODELS=" + model,
		"ALBERT_CODE_WORKSPACE=" + filepath.Join(dir, "ws"), "ALBERT_CODE_QUEUE_BOUND=1000",
	}, store...)
	logPath := filepath.Join(home, "serve.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s serve: %w", bin, err)
	}
	r := &replica{cmd: cmd, base: "http://127.0.0.1:" + strconv.Itoa(port), log: logPath, exited: make(chan struct{})}
	go func() { r.waitErr = cmd.Wait(); close(r.exited) }()
	for deadline := time.Now().Add(60 * time.Second); ; {
		if resp, err := http.Get(r.base + "/healthz"); err == nil {
			resp.Body.Close()
			return r, nil
		}
		select {
		case <-r.exited:
			b, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("replica %s exited (%v): %s", name, r.waitErr, b)
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("replica %s never answered /healthz", name)
		}
	}
}

// stop sends SIGTERM and waits for the exit.
func (r *replica) stop() {
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.exited:
	case <-time.After(60 * time.Second):
		_ = r.cmd.Process.Kill()
		<-r.exited
	}
}

// kill sends SIGKILL, as a node lost or the OOM killer.
func (r *replica) kill() {
	_ = r.cmd.Process.Signal(syscall.SIGKILL)
	<-r.exited
}

func (r *replica) call(ctx context.Context, method, path, body string) (int, map[string]any, error) {
	req, err := http.NewRequestWithContext(ctx, method, r.base+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out, nil
}
