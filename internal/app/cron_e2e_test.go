package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
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

func TestCronValidateCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	root := filepath.Join(h.work, "root")
	if err := os.MkdirAll(filepath.Join(root, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	good := h.writeFile("good.yml", "jobs:\n  - {name: a, schedule: '0 9 * * *', instruction: x, workspace: shared}\n  - {name: b, schedule: '0 9 * * *', instruction: x, enabled: false}\n")
	r := h.run("cron", "validate", good, "--workspace", root)
	if r.code != 0 || !strings.Contains(r.stdout, "good.yml: 2 jobs, 1 enabled: valid") || strings.Contains(r.stdout, "not checked") {
		t.Errorf("valid file: %+v", r)
	}
	one := h.writeFile("one.yml", "jobs:\n  - {name: a, schedule: '0 9 * * *', instruction: x, workspace: shared}\n")
	if r := h.run("cron", "validate", one, "--workspace", root); r.code != 0 || !strings.Contains(r.stdout, "one.yml: 1 job, 1 enabled: valid") {
		t.Errorf("one job: %+v", r)
	}
	r = h.run("cron", "validate", good, "--workspace", filepath.Join(h.work, "absent"))
	if r.code != 0 || !strings.Contains(r.stdout, "workspaces not checked") {
		t.Errorf("absent root: %+v", r)
	}
	noWS := h.writeFile("nows.yml", "jobs:\n  - {name: a, schedule: '0 9 * * *', instruction: x, workspace: other}\n")
	r = h.run("cron", "validate", noWS, "--workspace", root)
	if r.code != ExitUsage || !strings.Contains(r.stderr, `nows.yml:2: job "a": key "workspace"`) {
		t.Errorf("missing workspace: %+v", r)
	}
	bad := h.writeFile("bad.yml", "jobs:\n  - name: a\n    schedule: '* * *'\n    instruction: x\n    colour: red\n  - name: a\n    schedule: '* * * * *'\n    instruction: y\n")
	r = h.run("cron", "validate", bad)
	for _, w := range []string{`bad.yml:5: job "a": key "colour": unknown key`, `job "a": key "name": another job has this name`} {
		if r.code != ExitUsage || !strings.Contains(r.stderr, w) {
			t.Errorf("bad file: stderr lacks %q: %+v", w, r)
		}
	}
	if r := h.run("cron", "validate", filepath.Join(h.work, "none.yml")); r.code != ExitUsage || !strings.Contains(r.stderr, "none.yml") {
		t.Errorf("missing file: %+v", r)
	}
}

func TestCronListCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	file := h.writeFile("jobs.yml", `
timezone: Europe/Paris
jobs:
  - {name: morning, schedule: "0 9 * * 1-5", instruction: x}
  - {name: often, schedule: "*/30 * * * * *", instruction: x, timezone: UTC}
  - {name: off, schedule: "0 9 * * *", instruction: x, enabled: false}
`)
	r := h.run("cron", "list", file, "--from", "2026-12-04T12:00:00Z", "--count", "2")
	for _, w := range []string{
		"morning  0 9 * * 1-5", "2026-12-07 09:00:00 CET, 2026-12-08 09:00:00 CET",
		"2026-12-04 12:00:30 UTC, 2026-12-04 12:01:00 UTC", "disabled",
	} {
		if r.code != 0 || !strings.Contains(r.stdout, w) {
			t.Errorf("list lacks %q: %+v", w, r)
		}
	}
	r = cronRun(t, h, []string{"ALBERT_CODE_CRON_MODE_FILE=" + file}, "cron", "list", "--json", "--from", "2026-12-04T12:00:00Z", "--count", "1")
	var rows []cronJobListing
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 3 {
		t.Fatalf("json: %v %+v", err, r)
	}
	if want := time.Date(2026, 12, 7, 8, 0, 0, 0, time.UTC); rows[0].Name != "morning" || !rows[0].Next[0].Equal(want) || rows[0].Timezone != "Europe/Paris" {
		t.Errorf("rows[0] = %+v", rows[0])
	}
	if r := cronRun(t, h, []string{"ALBERT_CODE_CRON_MODE_FILE="}, "cron", "list"); r.code != ExitUsage || !strings.Contains(r.stderr, "ALBERT_CODE_CRON_MODE_FILE") {
		t.Errorf("no file: %+v", r)
	}
}

// With the API on, the scheduler yields, as the original's modes did.
func TestCronModeYieldsToTheAPI(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	c, _, _ := serveconfig.Parse(serveconfig.Source{LookupEnv: func(k string) (string, bool) {
		v, ok := map[string]string{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_CRON_MODE": "1", "ALBERT_CODE_CRON_MODE_FILE": "/nonexistent.yml"}[k]
		return v, ok
	}})
	sched, err := newServeCron(c, t.TempDir(), nil, nil, nil, nil, nil, slog.New(slog.NewTextHandler(&log, nil)))
	if sched != nil || err != nil || !strings.Contains(log.String(), "the API mode wins") {
		t.Errorf("sched %v, err %v, log %s", sched, err, log.String())
	}
}
