package cron

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func usage(t *testing.T, err error, want string) {
	t.Helper()
	var exit *cmdutil.Exit
	if !errors.As(err, &exit) || exit.Code != cmdutil.ExitUsage || !strings.Contains(err.Error(), want) {
		t.Errorf("err %v, want a usage error with %q", err, want)
	}
}

// Without arguments, the file and the workspaces' root are serve's settings.
func TestFlagsAndServesDefaults(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	env := f.LookupEnv
	f.LookupEnv = func(k string) (string, bool) {
		switch k {
		case "ALBERT_CODE_CRON_MODE_FILE":
			return "/etc/jobs.yml", true
		case "ALBERT_CODE_WORKSPACE":
			return "/srv/ws", true
		}
		return env(k)
	}
	var list *ListOptions
	keep := func(o *ListOptions) error { list = o; return nil }
	if err := cmdtest.Run(NewCmdList(f, keep)); err != nil || list.File != "/etc/jobs.yml" || list.Count != 3 || list.JSON {
		t.Fatalf("list: %+v %v", list, err)
	}
	if err := cmdtest.Run(NewCmdList(f, keep), "j.yml", "--count", "2", "--from", "2026-12-04T12:00:00Z", "--json"); err != nil ||
		list.File != "j.yml" || list.Count != 2 || list.From != "2026-12-04T12:00:00Z" || !list.JSON {
		t.Fatalf("list j.yml ...: %+v %v", list, err)
	}
	if err := cmdtest.Run(NewCmdList(f, keep), "--count", "many"); err == nil || !strings.Contains(err.Error(), "--count") {
		t.Errorf("--count many: %v", err)
	}
	var val *ValidateOptions
	if err := cmdtest.Run(NewCmdValidate(f, func(o *ValidateOptions) error { val = o; return nil }), "j.yml"); err != nil || val.File != "j.yml" || val.Workspace != "/srv/ws" {
		t.Fatalf("validate: %+v %v", val, err)
	}
	if err := cmdtest.Run(NewCmdValidate(f, func(*ValidateOptions) error { t.Fatal("ran"); return nil })); err == nil {
		t.Error("validate ran without a file")
	}
}

func TestValidate(t *testing.T) {
	f, stdout, _ := cmdtest.Factory(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(filepath.Join(root, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) error {
		stdout.Reset()
		return cmdtest.Run(NewCmdValidate(f, nil), args...)
	}
	good := write(t, dir, "good.yml", "jobs:\n  - {name: a, schedule: '0 9 * * *', instruction: x, workspace: shared}\n  - {name: b, schedule: '0 9 * * *', instruction: x, enabled: false}\n")
	if err := run(good, "--workspace", root); err != nil || stdout.String() != good+": 2 jobs, 1 enabled: valid\n" {
		t.Errorf("valid file: %q %v", stdout.String(), err)
	}
	one := write(t, dir, "one.yml", "jobs:\n  - {name: a, schedule: '0 9 * * *', instruction: x, workspace: shared}\n")
	if err := run(one, "--workspace", root); err != nil || !strings.Contains(stdout.String(), "one.yml: 1 job, 1 enabled: valid") {
		t.Errorf("one job: %q %v", stdout.String(), err)
	}
	if err := run(good, "--workspace", filepath.Join(dir, "absent")); err != nil || !strings.Contains(stdout.String(), "workspaces not checked: the root "+filepath.Join(dir, "absent")+" does not exist") {
		t.Errorf("absent root: %q %v", stdout.String(), err)
	}
	noWS := write(t, dir, "nows.yml", "jobs:\n  - {name: a, schedule: '0 9 * * *', instruction: x, workspace: other}\n")
	usage(t, run(noWS, "--workspace", root), `nows.yml:2: job "a": key "workspace"`)
	bad := write(t, dir, "bad.yml", "jobs:\n  - name: a\n    schedule: '* * *'\n    instruction: x\n    colour: red\n  - name: a\n    schedule: '* * * * *'\n    instruction: y\n")
	err := run(bad)
	for _, w := range []string{`bad.yml:5: job "a": key "colour": unknown key`, `job "a": key "name": another job has this name`} {
		usage(t, err, w)
	}
	usage(t, run(filepath.Join(dir, "none.yml")), "none.yml")
}

const jobs = `
timezone: Europe/Paris
jobs:
  - {name: morning, schedule: "0 9 * * 1-5", instruction: x}
  - {name: often, schedule: "*/30 * * * * *", instruction: x, timezone: UTC}
  - {name: off, schedule: "0 9 * * *", instruction: x, enabled: false}
`

func TestListTable(t *testing.T) {
	f, stdout, _ := cmdtest.Factory(t)
	file := write(t, t.TempDir(), "jobs.yml", jobs)
	if err := cmdtest.Run(NewCmdList(f, nil), file, "--from", "2026-12-04T12:00:00Z", "--count", "2"); err != nil {
		t.Fatal(err)
	}
	want := "JOB      SCHEDULE        ZONE          WORKSPACE  NEXT\n" +
		"morning  0 9 * * 1-5     Europe/Paris  .          2026-12-07 09:00:00 CET, 2026-12-08 09:00:00 CET\n" +
		"often    */30 * * * * *  UTC           .          2026-12-04 12:00:30 UTC, 2026-12-04 12:01:00 UTC\n" +
		"off      0 9 * * *       Europe/Paris  .          disabled\n"
	if stdout.String() != want {
		t.Fatalf("list:\n%s\nwant:\n%s", stdout.String(), want)
	}
}

// Without --from the list starts at the Factory's clock.
func TestListJSONFromNow(t *testing.T) {
	f, stdout, _ := cmdtest.Factory(t)
	file := write(t, t.TempDir(), "jobs.yml", jobs)
	if err := cmdtest.Run(NewCmdList(f, nil), file, "--json", "--count", "1"); err != nil {
		t.Fatal(err)
	}
	var rows []jobListing
	if err := json.Unmarshal(stdout.Bytes(), &rows); err != nil || len(rows) != 3 {
		t.Fatalf("json: %v\n%s", err, stdout.String())
	}
	// The fake clock is Tuesday 2026-12-01 09:00 UTC, 10:00 in Paris.
	if want := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC); rows[0].Name != "morning" || !rows[0].Next[0].Equal(want) || rows[0].Timezone != "Europe/Paris" {
		t.Errorf("rows[0] = %+v", rows[0])
	}
	if len(rows[2].Next) != 1 || rows[2].Enabled {
		t.Errorf("a disabled job still lists its times in JSON: %+v", rows[2])
	}
}

func TestListRefusals(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	file := write(t, t.TempDir(), "jobs.yml", jobs)
	usage(t, cmdtest.Run(NewCmdList(f, nil)), "ALBERT_CODE_CRON_MODE_FILE")
	usage(t, cmdtest.Run(NewCmdList(f, nil), file, "--count", "0"), "--count: want at least 1, got 0")
	usage(t, cmdtest.Run(NewCmdList(f, nil), file, "--from", "tomorrow"), `--from: want a time such as 2026-12-01T09:00:00Z, got "tomorrow"`)
}
