package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
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

// token is the API's bearer token; long enough that serve does not warn.
const token = "servebench-token-0123456789abcdef"

// model is the model clients ask for; serve offers it through ALBERT_CODE_AVAILABLE_MODELS.
const model = "mistral-medium"

// serveProc is one `albert-code serve` process, started with its own empty home,
// workspace root and run store, the native adapter pointed at modelURL.
type serveProc struct {
	cmd    *exec.Cmd
	base   string // http://127.0.0.1:PORT
	dir    string
	stderr *os.File
	exited chan error
}

func startServe(ctx context.Context, bin, modelURL, root string, extraEnv ...string) (*serveProc, error) {
	dir, err := os.MkdirTemp(root, "serve-")
	if err != nil {
		return nil, err
	}
	for _, d := range []string{"home/.albert-code", "xdg", "ws", "tmp"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, err
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve")
	cmd.Dir = dir
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"),
		"LANG=C.UTF-8",
		"HOME=" + filepath.Join(dir, "home"),
		"ALBERT_CODE_HOME=" + filepath.Join(dir, "home/.albert-code"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "xdg"),
		"TMPDIR=" + filepath.Join(dir, "tmp"),
		"ALBERT_API_KEY=servebench",
		"ALBERT_CODE_BASE_URL=" + modelURL,
		"ALBERT_CODE_API_MODE=1",
		"ALBERT_CODE_API_MODE_HOST=127.0.0.1",
		"ALBERT_CODE_API_MODE_PORT=" + strconv.Itoa(port),
		"ALBERT_CODE_API_MODE_TOKEN=" + token,
		"ALBERT_CODE_ADAPTER=native",
		"ALBERT_CODE_AVAILABLE_MODELS=" + model,
		"ALBERT_CODE_WORKSPACE=" + filepath.Join(dir, "ws"),
		"ALBERT_CODE_RUN_STORE=" + filepath.Join(dir, "runs.db"),
	}, extraEnv...)
	stderr, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = stderr, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s serve: %w", bin, err)
	}
	p := &serveProc{cmd: cmd, base: "http://127.0.0.1:" + strconv.Itoa(port), dir: dir, stderr: stderr, exited: make(chan error, 1)}
	go func() { p.exited <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(p.base + "/healthz")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p, nil
			}
		}
		select {
		case err := <-p.exited:
			return nil, fmt.Errorf("serve exited before answering /healthz (%v): %s", err, p.log())
		case <-ctx.Done():
			p.stop()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, fmt.Errorf("serve never answered /healthz: %s", p.log())
		}
	}
}

func (p *serveProc) log() string {
	b, _ := os.ReadFile(p.stderr.Name())
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// stop sends SIGTERM to the server (its own pid only), then SIGKILL after 20 s.
func (p *serveProc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(20 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
	_ = p.stderr.Close()
}

// procStatus reads VmRSS and VmHWM (KiB) of the server from /proc: the process's
// own figures, unaffected by the vfork accounting that skews ru_maxrss.
func (p *serveProc) procStatus() (rssKiB, hwmKiB int64, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			rssKiB = n
		case "VmHWM":
			hwmKiB = n
		}
	}
	return rssKiB, hwmKiB, sc.Err()
}

// cpu returns the user+system CPU time the server has used so far.
func (p *serveProc) cpu() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// Fields after the command name, which ends at the last ')': utime is the 12th, stime the 13th.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}

// metrics reads the Go figures serve exports on /metrics.
func (p *serveProc) metrics(ctx context.Context) (map[string]float64, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.base+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		name, val, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
			out[name] = f
		}
	}
	return out, sc.Err()
}

// call sends one JSON request to serve and decodes a JSON answer.
func (p *serveProc) call(ctx context.Context, method, path string, body any) (int, map[string]any, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = strings.NewReader(string(b))
	}
	req, err := http.NewRequestWithContext(ctx, method, p.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := apiClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil && !errors.Is(err, io.EOF) {
		return resp.StatusCode, nil, fmt.Errorf("%s %s: decode: %w", method, path, err)
	}
	return resp.StatusCode, out, nil
}

// apiClient keeps enough idle connections for 200 concurrent callers.
var apiClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 0}}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
