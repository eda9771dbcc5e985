package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// running reports whether pid runs: a killed orphan that init has not reaped yet
// (a zombie) does not.
func running(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// waitHealthy polls /healthz until serve answers.
func waitHealthy(t *testing.T, base string, exited <-chan error, stderr *lockedBuffer) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			return
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
}

// TestServeKillsWhatACrashedRunLeftRunning: serve runs a CLI agent that starts a
// long sleep in its process group and is SIGKILLed; the sleep outlives it. The
// next serve on the same run store kills the sleep at start (the group and its
// leader's start time are in the store) and reports the run interrupted.
func TestServeKillsWhatACrashedRunLeftRunning(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	fake := t.TempDir()
	script, err := filepath.Abs("../serve/adapter/testdata/fake-agent.sh")
	if err != nil {
		t.Fatal(err)
	}
	transcript, _ := filepath.Abs("../serve/adapter/testdata/claude.jsonl")
	token := "e2e-token-0123456789abcdef"
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	serve := func() (*exec.Cmd, *lockedBuffer, <-chan error, string) {
		port := strconv.Itoa(freePort(t))
		cmd, stderr, exited := startServe(ctx, t, h, "ALBERT_CODE_API_MODE=1", "ALBERT_CODE_API_MODE_PORT="+port,
			"ALBERT_CODE_API_MODE_TOKEN="+token, "ALBERT_CODE_ADAPTER=claude", "ALBERT_CODE_AGENT_BINARY="+script,
			"ALBERT_CODE_SANDBOXED=1", // the fake agent is no Claude Code: root may run it
			"FAKE_DIR="+fake, "FAKE_TRANSCRIPT="+transcript, "FAKE_MODE=hang")
		base := "http://127.0.0.1:" + port
		waitHealthy(t, base, exited, stderr)
		return cmd, stderr, exited, base
	}
	call := func(method, url, body string) map[string]any {
		req, _ := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return out
	}

	first, stderr1, exited1, base := serve()
	out := call("POST", base+"/run", `{"prompt":"hang","workspace":"proj","async":true}`)
	id, _ := out["runId"].(string)
	if id == "" {
		t.Fatalf("async /run: %v\n%s", out, stderr1.String())
	}
	sleep, err := strconv.Atoi(waitFile(t, filepath.Join(fake, "grandchild")))
	if err != nil {
		t.Fatal(err)
	}
	pgid, err := syscall.Getpgid(sleep)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) }) // whatever the outcome
	// The sandbox's guardian kills the agent's tree when serve dies; the run store
	// is for when the guardian died too (the OOM killer, a kill -9 of the lot).
	// serve is frozen first, so its supervisor cannot act on the agent's end; then
	// the launcher and guardian die, then serve. (Freezing the guardian instead
	// would not do: its group, orphaned by serve's death with a stopped member,
	// would get SIGHUP from the kernel.)
	guardians := sandboxLaunchers(pgid)
	if len(guardians) == 0 {
		t.Fatal("the CLI agent does not run under the sandbox's guardian")
	}
	_ = first.Process.Signal(syscall.SIGSTOP)
	for _, g := range guardians {
		_ = syscall.Kill(g, syscall.SIGKILL)
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited1
	time.Sleep(200 * time.Millisecond) // time enough for anything tied to serve's death
	if !running(sleep) {
		t.Fatal("the sleep died with serve and its guardian: this test no longer shows the restart's kill")
	}

	second, stderr2, exited2, base := serve()
	deadline := time.Now().Add(5 * time.Second)
	for running(sleep) {
		if time.Now().After(deadline) {
			t.Fatalf("the sleep %d left by the crashed run still runs after the restart:\n%s", sleep, stderr2.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(stderr2.String(), "killed processes left running by an interrupted run") ||
		!strings.Contains(stderr2.String(), "run="+id) {
		t.Errorf("the restart did not log the kill:\n%s", stderr2.String())
	}
	res := call("GET", base+"/run/result?runId="+id, "")
	if res["status"] != "failed" || res["error"] != "interrupted by a restart" {
		t.Errorf("the crashed run after the restart: %v", res)
	}
	stopServe(t, second, exited2, stderr2, 40*time.Second)
}

// sandboxLaunchers are the sandbox's launcher and guardian processes in group pgid.
func sandboxLaunchers(pgid int) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if g, err := syscall.Getpgid(pid); err == nil && g == pgid && bytes.Contains(cmdline, []byte("__albert-code-sandbox")) {
			out = append(out, pid)
		}
	}
	return out
}
