package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// TestCronServeEndToEnd runs the scheduler alone (no API) with the native agent
// against the fake model: a job fires, its run is kept on disk, and SIGTERM stops
// the server.
func TestCronServeEndToEnd(t *testing.T) {
	t.Parallel()
	turns := make([]fakemodel.Turn, 20)
	for i := range turns {
		turns[i] = fakemodel.Turn{Text: []string{"Hello from", " the cron."}}
	}
	h := newHarness(t, turns...)
	if err := os.MkdirAll(filepath.Join(h.work, "root", "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := h.writeFile("cron.yml", `
jobs:
  - name: hello
    schedule: "* * * * * *"
    instruction: "say hello for {job_name}"
    workspace: proj
    no_continue: true
`)
	history := filepath.Join(h.home, "cron-history")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd, stderr, exited := startServe(ctx, t, h, "ALBERT_CODE_CRON_MODE=1", "ALBERT_CODE_CRON_MODE_FILE="+file,
		"ALBERT_CODE_CRON_MODE_HISTORY_DIR="+history)

	var run map[string]any
	deadline := time.Now().Add(60 * time.Second)
	for run == nil {
		select {
		case err := <-exited:
			t.Fatalf("serve exited: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no run recorded:\n%s", stderr.String())
		}
		run = firstCronRun(filepath.Join(history, "hello.jsonl"))
		time.Sleep(20 * time.Millisecond)
	}
	if run["status"] != "ok" || run["text"] != "Hello from the cron." {
		t.Errorf("run = %v\n%s", run, stderr.String())
	}
	dir, _ := run["history_dir"].(string)
	if got, err := os.ReadFile(filepath.Join(dir, "result.txt")); err != nil || string(got) != "Hello from the cron." {
		t.Errorf("result.txt = %q, %v", got, err)
	}
	stopServe(t, cmd, exited, stderr, 60*time.Second)
	if !strings.Contains(stderr.String(), "cron: scheduler stopped") {
		t.Errorf("no scheduler stop in the log:\n%s", stderr.String())
	}
}

// firstCronRun returns the first run line of a job's summary, or nil.
func firstCronRun(path string) map[string]any {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var line map[string]any
		if json.Unmarshal(sc.Bytes(), &line) == nil && (line["status"] == "ok" || line["status"] == "failed") {
			return line
		}
	}
	return nil
}

// TestCronServeRefusesBadJobs: serve stops before scheduling anything, naming
// the job and key at fault, with the usage exit code.
func TestCronServeRefusesBadJobs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if err := os.MkdirAll(filepath.Join(h.work, "root"), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := h.writeFile("bad.yml", "jobs:\n  - name: a\n    schedule: '0 0 30 2 *'\n    instruction: x\n")
	ghost := h.writeFile("ghost.yml", "jobs:\n  - name: b\n    schedule: '0 9 * * *'\n    instruction: x\n    workspace: nowhere\n")
	for _, c := range []struct {
		file string
		want []string
	}{
		{bad, []string{"bad.yml:3", `job "a"`, `key "schedule"`, "never fires"}},
		{ghost, []string{`ghost.yml:2: job "b": key "workspace"`, "no such workspace"}},
		{"", []string{"ALBERT_CODE_CRON_MODE_FILE"}},
	} {
		r := cronRun(t, h, []string{"ALBERT_CODE_CRON_MODE=1", "ALBERT_CODE_CRON_MODE_FILE=" + c.file,
			"ALBERT_CODE_WORKSPACE=" + filepath.Join(h.work, "root"), "ALBERT_CODE_RUN_STORE=" + filepath.Join(h.home, "runs.db")}, "serve")
		if r.code != ExitUsage {
			t.Errorf("%q: exit %d, want %d\n%s", c.file, r.code, ExitUsage, r.stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%q: stderr lacks %q:\n%s", c.file, w, r.stderr)
			}
		}
	}
}

// cronRun runs the binary with env added, to completion (bounded).
func cronRun(t *testing.T, h *harness, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := h.command(ctx, args...)
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("albert-code %v did not finish in time:\n%s", args, errOut.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}
