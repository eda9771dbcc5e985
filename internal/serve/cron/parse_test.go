package cron

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/problems"
)

var parseNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func TestParseAppliesRootDefaultsAndJobOverrides(t *testing.T) {
	t.Parallel()
	f, err := Parse("cron.yml", []byte(`
model: root-model
effort: low
telegram_chat_id: "-100123"
timeout: 90
timezone: Europe/Paris
no_continue: true
system_prompt: root system
jobs:
  - name: morning-report
    schedule: "0 0 9 * * *"
    instruction: |
      Summarize yesterday's git activity in {workspace}.
    workspace: shared
    model: claude-sonnet
  - name: nightly
    schedule: "30 2 * * 1-5"
    instruction: run the tests
    telegram_chat_id: 0
    thinking: high
    timeout: 1h30m
    timezone: UTC
    no_continue: false
    system_prompt: ""
    enabled: false
`), parseNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Jobs) != 2 {
		t.Fatalf("jobs = %d, want 2", len(f.Jobs))
	}
	m, n := f.Jobs[0], f.Jobs[1]
	if m.Model != "claude-sonnet" || m.Effort != "low" || m.TelegramChatID != -100123 || m.Timeout != 90*time.Second ||
		m.Workspace != "shared" || !m.NoContinue || m.SystemPrompt != "root system" || !m.Enabled || m.Schedule.Location.String() != "Europe/Paris" {
		t.Errorf("morning-report = %+v", m)
	}
	if n.Model != "root-model" || n.Effort != "high" || n.TelegramChatID != 0 || n.Timeout != 90*time.Minute ||
		n.Workspace != DefaultWorkspace || n.NoContinue || n.SystemPrompt != "" || n.Enabled || n.Schedule.Location != time.UTC {
		t.Errorf("nightly = %+v", n)
	}
	if got := f.Enabled(); len(got) != 1 || got[0] != m {
		t.Errorf("Enabled() = %v, want only morning-report", got)
	}
}

func TestParseDefaultsWithoutRootKeys(t *testing.T) {
	t.Parallel()
	f, err := Parse("cron.yml", []byte("jobs:\n  - {name: a, schedule: '* * * * *', instruction: x}\n"), parseNow)
	if err != nil {
		t.Fatal(err)
	}
	j := f.Jobs[0]
	if j.Workspace != "." || j.NoContinue || !j.Enabled || j.Schedule.Location != time.UTC || j.Timeout != 0 || j.TelegramChatID != 0 {
		t.Errorf("job = %+v", j)
	}
}

// Every bad input is refused with a message naming the line, the job and the key.
func TestParseRefusesBadInputNamingJobAndKey(t *testing.T) {
	t.Parallel()
	job := func(extra string) string {
		return "jobs:\n  - name: report\n    schedule: '0 9 * * *'\n    instruction: go\n" + extra
	}
	cases := []struct {
		name, yaml string
		want       []string
	}{
		{"malformed YAML", "jobs: [\n", []string{"cron.yml: not valid YAML"}},
		{"empty file", "", []string{"the file is empty"}},
		{"not a mapping", "- a\n- b\n", []string{"must be a mapping"}},
		{"no jobs", "model: x\n", []string{`key "jobs": missing`}},
		{"jobs not a list", "jobs: {a: 1}\n", []string{`key "jobs": want a list`}},
		{"empty jobs", "jobs: []\n", []string{`key "jobs": the list is empty`}},
		{"job not a mapping", "jobs:\n  - just text\n", []string{"job jobs[0]: want a mapping"}},
		{"unknown root key", "modle: x\n" + job(""), []string{`cron.yml:1: key "modle": unknown key; known keys here:`, "model"}},
		{"job key at root", "enabled: false\n" + job(""), []string{`key "enabled": unknown key; it is only allowed in a job`}},
		{"unknown job key", job("    shedule: x\n"), []string{`cron.yml:5: job "report": key "shedule": unknown key`}},
		{"duplicate key", job("    model: a\n    model: b\n"), []string{`job "report": key "model": given twice (first at line 5)`}},
		{"missing name", "jobs:\n  - schedule: '* * * * *'\n    instruction: x\n", []string{`job jobs[0]: key "name": missing`}},
		{"bad name", "jobs:\n  - name: a/b\n    schedule: '* * * * *'\n    instruction: x\n", []string{`job jobs[0]: key "name": "a/b" is not a name`}},
		{"duplicate name", job("  - {name: report, schedule: '* * * * *', instruction: y}\n"), []string{`job "report": key "name": another job has this name (line 2)`}},
		{"missing schedule", "jobs:\n  - name: a\n    instruction: x\n", []string{`job "a": key "schedule": missing`}},
		{"bad schedule", "jobs:\n  - name: a\n    schedule: '61 * * * *'\n    instruction: x\n", []string{`cron.yml:3: job "a": key "schedule": "61 * * * *" is not a schedule`}},
		{"too many fields", "jobs:\n  - name: a\n    schedule: '0 0 0 0 * * *'\n    instruction: x\n", []string{`key "schedule"`, "is not a schedule"}},
		{"never fires", "jobs:\n  - name: a\n    schedule: '0 0 30 2 *'\n    instruction: x\n", []string{`job "a": key "schedule": "0 0 30 2 *" never fires`}},
		{"blank instruction", "jobs:\n  - name: a\n    schedule: '* * * * *'\n    instruction: '  '\n", []string{`job "a": key "instruction": missing or blank`}},
		{"bad timezone", job("    timezone: Mars/Olympus\n"), []string{`job "report": key "timezone": "Mars/Olympus" is not a time zone`}},
		{"bad root timezone", "timezone: Nowhere\n" + job(""), []string{`job "report": key "timezone": "Nowhere" is not a time zone`}},
		{"bad timeout", job("    timeout: soon\n"), []string{`job "report": key "timeout": want a duration`}},
		{"negative timeout", job("    timeout: -5s\n"), []string{`key "timeout": want a positive duration`}},
		{"string for bool", job("    no_continue: 'yes'\n"), []string{`job "report": key "no_continue": want true or false, got str "yes"`}},
		{"number for string", job("    model: 4\n"), []string{`job "report": key "model": want a string, got int "4" (quote it)`}},
		{"bad chat id", job("    telegram_chat_id: team\n"), []string{`job "report": key "telegram_chat_id": want a Telegram chat id`}},
		{"absolute workspace", job("    workspace: /etc\n"), []string{`job "report": key "workspace": "/etc" is not a folder under the workspace root`}},
		{"escaping workspace", job("    workspace: ../other\n"), []string{`key "workspace": "../other" is not a folder`}},
		{"effort and thinking disagree", job("    effort: low\n    thinking: high\n"), []string{`job "report": key "effort": effort "low" and thinking "high" disagree`}},
		{"root effort and thinking disagree", "effort: low\nthinking: high\n" + job(""), []string{`cron.yml:2: key "effort": effort "low" and thinking "high" disagree`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f, err := Parse("cron.yml", []byte(c.yaml), parseNow)
			if err == nil {
				t.Fatalf("accepted: %+v", f)
			}
			var ps problems.List
			if !errors.As(err, &ps) {
				t.Fatalf("error %T is not a problems.List: %v", err, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\nlacks %q", err, w)
				}
			}
		})
	}
}

func TestParseReportsEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	_, err := Parse("cron.yml", []byte(`
jobs:
  - name: a
    schedule: nope
    instruction: x
  - name: b
    schedule: '* * * * *'
    instruction: ""
    colour: blue
`), parseNow)
	if err == nil {
		t.Fatal("accepted")
	}
	for _, w := range []string{`job "a": key "schedule"`, `job "b": key "colour"`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error\n%v\nlacks %q", err, w)
		}
	}
}

func TestParseAcceptsEffortAndThinkingThatAgree(t *testing.T) {
	t.Parallel()
	f, err := Parse("cron.yml", []byte("thinking: medium\njobs:\n  - {name: a, schedule: '* * * * *', instruction: x}\n  - {name: b, schedule: '* * * * *', instruction: x, effort: high, thinking: high}\n"), parseNow)
	if err != nil {
		t.Fatal(err)
	}
	if f.Jobs[0].Effort != "medium" || f.Jobs[1].Effort != "high" {
		t.Errorf("efforts = %q, %q", f.Jobs[0].Effort, f.Jobs[1].Effort)
	}
}

func TestLoadNamesAMissingFile(t *testing.T) {
	t.Parallel()
	_, err := Load(t.TempDir()+"/none.yml", parseNow)
	if err == nil || !strings.Contains(err.Error(), "none.yml") {
		t.Fatalf("err = %v", err)
	}
}
