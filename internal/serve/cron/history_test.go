package cron

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestWorkspaceSlug(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"/workspace/foo bar": "workspace_foo_bar", "/": "workspace", "/w/été/x": "w_t_x"} {
		if got := workspaceSlug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// The hint counts every run but names only the latest few, newest last, and
// ignores folders that are not runs of this job.
func TestHintNamesTheLatestRunsOfTheJob(t *testing.T) {
	t.Parallel()
	h := &history{root: t.TempDir()}
	dir := filepath.Join(h.root, "history", "ws")
	for i := range 7 {
		for _, job := range []string{"report", "daily-report", "report-2"} {
			if err := os.MkdirAll(filepath.Join(dir, runDirName(start.Add(time.Duration(i)*time.Hour), job)), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, junk := range []string{"notes-report", "2026-report"} {
		if err := os.MkdirAll(filepath.Join(dir, junk), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := h.earlierRuns("ws", "report")
	if err != nil || len(runs) != 7 {
		t.Fatalf("runs = %v, %v", runs, err)
	}
	hint := h.hint("report", runs)
	if !strings.Contains(hint, "7 so far") || !strings.Contains(hint, "The most recent is "+runs[6]) {
		t.Errorf("hint:\n%s", hint)
	}
	for i, r := range runs {
		if named := strings.Contains(hint, r); named != (i >= 2) {
			t.Errorf("run %d named = %v:\n%s", i, named, hint)
		}
	}
	if strings.Contains(hint, "daily-report") || strings.Contains(hint, "report-2") {
		t.Errorf("hint names other jobs:\n%s", hint)
	}
	added := filepath.Join(dir, runDirName(start.Add(8*time.Hour), "report"))
	h.added("ws", "report", added)
	if runs, _ := h.earlierRuns("ws", "report"); len(runs) != 8 || runs[7] != added {
		t.Errorf("after added: %v", runs)
	}
	if h.hint("report", nil) != "" {
		t.Error("a hint without earlier runs")
	}
}

func TestInboxKeepsTheLatestMessages(t *testing.T) {
	t.Parallel()
	h := &history{root: t.TempDir()}
	for i := range inboxCap + 10 {
		if err := h.remember([]InboxEntry{{ChatID: 1, MessageID: int64(i), Job: fmt.Sprint("job", i)}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, err := LookupMessage(h.root, 1, 9); ok || err != nil {
		t.Errorf("an old message kept: %v %v", ok, err)
	}
	if e, ok, err := LookupMessage(h.root, 1, inboxCap+9); !ok || err != nil || e.Job != fmt.Sprint("job", inboxCap+9) {
		t.Errorf("latest = %+v %v %v", e, ok, err)
	}
	if err := os.WriteFile(filepath.Join(h.root, inboxFile), []byte("{broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LookupMessage(h.root, 1, 1); err == nil || !strings.Contains(err.Error(), inboxFile) {
		t.Errorf("a broken inbox: err = %v", err)
	}
}

func TestCutsKeepCharactersWhole(t *testing.T) {
	t.Parallel()
	s := strings.Repeat("é", 10) // 2 bytes each
	if got, cut := head(s, 5); !cut || got != "éé" || !utf8.ValidString(got) {
		t.Errorf("head = %q, %v", got, cut)
	}
	if got := tail(s, 5); got != "éé" {
		t.Errorf("tail = %q", got)
	}
	if got, cut := head("short", 10); cut || got != "short" {
		t.Errorf("head = %q, %v", got, cut)
	}
}

func TestExpandLeavesOtherBracesAlone(t *testing.T) {
	t.Parallel()
	paris, _ := time.LoadLocation("Europe/Paris")
	got := expand(`{job_name} {system_datetime} {workspace} {"json": {unknown}}`, "r", start.In(paris), "/w")
	if want := `r 2026-11-30 13:00:00 CET /w {"json": {unknown}}`; got != want {
		t.Errorf("expand = %q, want %q", got, want)
	}
}
