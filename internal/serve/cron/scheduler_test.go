package cron

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

const reportJob = `
jobs:
  - name: report
    schedule: "* * * * *"
    instruction: "{job_name} at {system_datetime} in {workspace}"
    workspace: shared
    model: m1
    effort: high
    timeout: 5m
    append_system_prompt: "for {job_name}"
`

func TestSchedulerRunsEachTickAndKeepsItsHistory(t *testing.T) {
	t.Parallel()
	f := newFixture(t, reportJob, "shared")
	f.run()
	if got := f.agent.requests(); len(got) != 0 {
		t.Fatalf("ran before its time: %v", got)
	}
	f.at(time.Minute)
	s := f.report()
	ws := filepath.Join(f.root.Dir(), "shared")
	reqs := f.agent.requests()
	if len(reqs) != 1 {
		t.Fatalf("requests = %d, want 1", len(reqs))
	}
	r := reqs[0]
	if want := "report at 2026-11-30 12:01:00 UTC in " + ws; r.Prompt != want {
		t.Errorf("prompt = %q, want %q", r.Prompt, want)
	}
	if r.Workspace != ws || r.Model != "m1" || r.Thinking != "high" || !r.Continue || r.Timeout != 5*time.Minute || r.AppendSystemPrompt != "for report" {
		t.Errorf("request = %+v", r)
	}
	if s.Status != StatusOK || !s.FiredAt.Equal(start.Add(time.Minute)) || s.Text != "done: "+r.Prompt || s.ExitCode == nil || *s.ExitCode != 0 {
		t.Errorf("summary = %+v", s)
	}
	wantDir := filepath.Join(f.hist, "history", workspaceSlug(ws), "20261130-120100-report")
	if s.HistoryDir != wantDir {
		t.Fatalf("history dir = %q, want %q", s.HistoryDir, wantDir)
	}
	var m meta
	readJSON(t, filepath.Join(wantDir, metaFile), &m)
	if m.FinishedAt == nil || m.ExitCode == nil || *m.ExitCode != 0 || m.Error != nil || m.Instruction != r.Prompt || m.Workspace != ws || m.Timezone != "UTC" {
		t.Errorf("meta = %+v", m)
	}
	for name, want := range map[string]string{stdoutFile: `{"type":"result"}`, stderrFile: "warn", resultFile: s.Text} {
		if got := readFile(t, filepath.Join(wantDir, name)); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(wantDir, telegramFile)); !os.IsNotExist(err) {
		t.Errorf("telegram.json without a chat id: %v", err)
	}

	f.at(2 * time.Minute)
	f.report()
	reqs = f.agent.requests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want 2", len(reqs))
	}
	if hint := reqs[1].AppendSystemPrompt; !strings.HasPrefix(hint, "for report\n\n") || !strings.Contains(hint, wantDir) {
		t.Errorf("second run's hint does not name the first run:\n%s", hint)
	}
	if got := f.summaries("report"); len(got) != 2 || got[1].Status != StatusOK {
		t.Errorf("summaries = %+v", got)
	}
}

// meta.json is on disk while the run goes, its outcome null.
func TestSchedulerWritesMetaAtStart(t *testing.T) {
	t.Parallel()
	f := newFixture(t, reportJob, "shared")
	running, release := make(chan string), make(chan struct{})
	f.agent.run = func(ctx context.Context, req backend.Request) (backend.Result, error) {
		running <- "started"
		<-release
		return backend.Result{Text: "ok"}, nil
	}
	f.run()
	f.at(time.Minute)
	<-running
	dir := filepath.Join(f.hist, "history", workspaceSlug(filepath.Join(f.root.Dir(), "shared")), "20261130-120100-report")
	var m map[string]any
	readJSON(t, filepath.Join(dir, metaFile), &m)
	for _, k := range []string{"finished_at", "exit_code", "error"} {
		if v, ok := m[k]; !ok || v != nil {
			t.Errorf("meta.json at start: %s = %v (present %v), want null", k, v, ok)
		}
	}
	close(release)
	f.report()
}

// A tick while the job still runs is skipped and recorded, not queued.
func TestSchedulerSkipsAndRecordsOverlappingTicks(t *testing.T) {
	t.Parallel()
	f := newFixture(t, reportJob, "shared")
	release := make(chan struct{})
	f.agent.run = func(ctx context.Context, req backend.Request) (backend.Result, error) {
		<-release
		return backend.Result{Text: "slow"}, nil
	}
	f.run()
	f.at(time.Minute)
	f.at(2 * time.Minute)
	skipped := f.report()
	if skipped.Status != StatusSkipped || !skipped.FiredAt.Equal(start.Add(2*time.Minute)) || !strings.Contains(skipped.Error, "still going") {
		t.Errorf("skip = %+v", skipped)
	}
	close(release)
	if done := f.report(); done.Status != StatusOK || !done.FiredAt.Equal(start.Add(time.Minute)) {
		t.Errorf("run = %+v", done)
	}
	f.at(3 * time.Minute)
	f.report()
	if n := len(f.agent.requests()); n != 2 {
		t.Errorf("agent ran %d times, want 2 (the skipped tick is not queued)", n)
	}
	got := f.summaries("report")
	if len(got) != 3 || got[0].Status != StatusSkipped {
		t.Errorf("summaries = %+v", got)
	}
}

// Ticks passed while the scheduler could not fire (a suspended machine) are
// coalesced into one run of the latest, and their count recorded.
func TestSchedulerCoalescesMissedTicks(t *testing.T) {
	t.Parallel()
	f := newFixture(t, reportJob, "shared")
	f.run()
	f.at(5*time.Minute + 30*time.Second)
	missed := f.report()
	if missed.Status != StatusMissed || missed.Missed != 4 || !missed.FiredAt.Equal(start.Add(5*time.Minute)) {
		t.Errorf("missed = %+v", missed)
	}
	run := f.report()
	if run.Status != StatusOK || !run.FiredAt.Equal(start.Add(5*time.Minute)) {
		t.Errorf("run = %+v", run)
	}
	if n := len(f.agent.requests()); n != 1 {
		t.Errorf("agent ran %d times, want 1", n)
	}
	f.at(6 * time.Minute)
	if s := f.report(); s.Status != StatusOK || !s.FiredAt.Equal(start.Add(6*time.Minute)) {
		t.Errorf("next tick = %+v", s)
	}
}

// The hint names this job's runs only: "daily-report" ends in "-report" too,
// which the original's glob mixed in.
func TestSchedulerHintNamesOnlyThisJobsRuns(t *testing.T) {
	t.Parallel()
	f := newFixture(t, `
jobs:
  - {name: report, schedule: "0 * * * * *", instruction: a}
  - {name: daily-report, schedule: "30 * * * * *", instruction: b}
`)
	f.run()
	f.at(30 * time.Second)
	f.report()
	f.at(time.Minute)
	f.report()
	f.at(90 * time.Second)
	f.report()
	f.at(2 * time.Minute)
	f.report()
	var hint string
	for _, r := range f.agent.requests() {
		if r.Prompt == "a" {
			hint = r.AppendSystemPrompt
		}
	}
	if !strings.Contains(hint, "-120100-report") {
		t.Errorf("hint lacks the first run of report:\n%s", hint)
	}
	if strings.Contains(hint, "daily-report") {
		t.Errorf("hint names another job's runs:\n%s", hint)
	}
	if !strings.Contains(hint, filepath.Join(f.hist, "report.jsonl")) {
		t.Errorf("hint lacks the summary file:\n%s", hint)
	}
}

func TestSchedulerNotifiesTheWholeResultAndRemembersTheMessage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, `
telegram_chat_id: -100123
jobs:
  - {name: report, schedule: "* * * * *", instruction: "summarise"}
  - {name: quiet, schedule: "* * * * *", instruction: "x", telegram_chat_id: 0}
`)
	long := strings.Repeat("a long answer line\n", 1000) // past Telegram's 4096: the notifier splits, nothing is cut here
	f.agent.run = func(ctx context.Context, req backend.Request) (backend.Result, error) {
		return backend.Result{Text: long}, nil
	}
	f.run()
	f.at(time.Minute)
	got := map[string]Summary{}
	for range 2 {
		s := f.report()
		got[s.Job] = s
	}
	notes := f.notifier.notifications()
	if len(notes) != 1 {
		t.Fatalf("notifications = %d, want 1 (quiet opted out)", len(notes))
	}
	n := notes[0]
	if n.ChatID != -100123 || n.Job != "report" || n.Failed || n.Text != "**[report]**\n\n"+long || n.HistoryDir != got["report"].HistoryDir {
		t.Errorf("notification = %+v", n)
	}
	s := got["report"]
	if len(s.TelegramMessageIDs) != 1 || s.NotifyError != "" || !s.TextTruncated || len(s.Text) > summaryTextCap {
		t.Errorf("summary = %+v", s)
	}
	if full := readFile(t, filepath.Join(s.HistoryDir, resultFile)); full != long {
		t.Errorf("result.txt cut: %d bytes, want %d", len(full), len(long))
	}
	var rec telegramRecord
	readJSON(t, filepath.Join(s.HistoryDir, telegramFile), &rec)
	if rec.ChatID != -100123 || len(rec.MessageIDs) != 1 {
		t.Errorf("telegram.json = %+v", rec)
	}
	entry, ok, err := LookupMessage(f.hist, -100123, rec.MessageIDs[0])
	if err != nil || !ok || entry.Job != "report" || entry.Instruction != "summarise" || entry.HistoryDir != s.HistoryDir || len(entry.Result) != inboxResultCap {
		t.Errorf("inbox entry = %+v, %v, %v", entry, ok, err)
	}
	if _, ok, _ := LookupMessage(f.hist, 999, rec.MessageIDs[0]); ok {
		t.Error("a message id found under another chat")
	}
}

func TestSchedulerNotifiesFailuresWithTheReason(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "telegram_chat_id: 5\njobs:\n  - {name: report, schedule: '* * * * *', instruction: x}\n")
	f.agent.run = func(ctx context.Context, req backend.Request) (backend.Result, error) {
		return backend.Result{ExitCode: 3, Stderr: "boom: no key", Stopped: "exited"}, nil
	}
	f.run()
	f.at(time.Minute)
	s := f.report()
	if s.Status != StatusFailed || s.ExitCode == nil || *s.ExitCode != 3 || s.Stderr != "boom: no key" {
		t.Errorf("summary = %+v", s)
	}
	n := f.notifier.notifications()
	if len(n) != 1 || !n[0].Failed || !strings.Contains(n[0].Text, "**[report]** job failed (exit 3)") || !strings.Contains(n[0].Text, "boom: no key") {
		t.Errorf("notifications = %+v", n)
	}
}

// The agent's own failure (Claude Code's error_max_turns) fails the job with its
// reason, even after exit 0.
func TestSchedulerRecordsTheAgentsOwnFailure(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "jobs:\n  - {name: report, schedule: '* * * * *', instruction: x}\n")
	f.agent.run = func(ctx context.Context, req backend.Request) (backend.Result, error) {
		return backend.Result{Stopped: "exited", AgentError: "claude stopped: error_max_turns: Reached maximum number of turns (1)"}, nil
	}
	f.run()
	f.at(time.Minute)
	s := f.report()
	if s.Status != StatusFailed || s.Error != "agent: claude stopped: error_max_turns: Reached maximum number of turns (1)" {
		t.Errorf("summary = %+v", s)
	}
}

func TestSchedulerNotifiesAnEmptyAnswer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "telegram_chat_id: 5\njobs:\n  - {name: report, schedule: '* * * * *', instruction: x}\n")
	f.agent.run = func(ctx context.Context, req backend.Request) (backend.Result, error) { return backend.Result{}, nil }
	f.run()
	f.at(time.Minute)
	f.report()
	if n := f.notifier.notifications(); len(n) != 1 || n[0].Text != "**[report]** finished (no output)" {
		t.Errorf("notifications = %+v", n)
	}
}

// A failed notification is recorded next to the run, which still counts as done.
func TestSchedulerRecordsAFailedNotification(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "telegram_chat_id: 5\njobs:\n  - {name: report, schedule: '* * * * *', instruction: x}\n")
	f.notifier.err = errors.New("telegram: 502 bad gateway")
	f.run()
	f.at(time.Minute)
	s := f.report()
	if s.Status != StatusOK || s.NotifyError != "telegram: 502 bad gateway" {
		t.Errorf("summary = %+v", s)
	}
	var rec telegramRecord
	readJSON(t, filepath.Join(s.HistoryDir, telegramFile), &rec)
	if rec.Error != "telegram: 502 bad gateway" {
		t.Errorf("telegram.json = %+v", rec)
	}
}

func TestSchedulerWithoutNotifierSaysSo(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "telegram_chat_id: 5\njobs:\n  - {name: report, schedule: '* * * * *', instruction: x}\n")
	f.sched.opts.Notifier = nil
	f.run()
	f.at(time.Minute)
	if s := f.report(); !strings.Contains(s.NotifyError, "no notifier") {
		t.Errorf("summary = %+v", s)
	}
}

func TestNewRefusesAJobWhoseWorkspaceDoesNotExist(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := newFixture(t, "jobs:\n  - {name: a, schedule: '* * * * *', instruction: x}\n")
	file, err := Parse("cron.yml", []byte("jobs:\n  - {name: ghost, schedule: '* * * * *', instruction: x, workspace: missing}\n  - {name: off, schedule: '* * * * *', instruction: x, workspace: missing, enabled: false}\n"), start)
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(Options{Jobs: file.Jobs, Root: f.root, Locks: f.locks, Agent: f.agent, HistoryDir: dir})
	if err == nil || !strings.Contains(err.Error(), `job "ghost": key "workspace"`) || !strings.Contains(err.Error(), "no such workspace") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), `"off"`) {
		t.Errorf("a disabled job's workspace was checked: %v", err)
	}
}

// A workspace removed after start-up fails that run, recorded, without running the agent.
func TestSchedulerRecordsAWorkspaceRemovedAfterStart(t *testing.T) {
	t.Parallel()
	f := newFixture(t, reportJob, "shared")
	f.run()
	if err := os.Remove(filepath.Join(f.root.Dir(), "shared")); err != nil {
		t.Fatal(err)
	}
	f.at(time.Minute)
	s := f.report()
	if s.Status != StatusFailed || !strings.Contains(s.Error, `workspace "shared"`) || s.HistoryDir != "" {
		t.Errorf("summary = %+v", s)
	}
	if n := len(f.agent.requests()); n != 0 {
		t.Errorf("agent ran %d times", n)
	}
}

// A job waits for its workspace like any other run, and runs once it is free.
func TestSchedulerTakesTheWorkspaceLock(t *testing.T) {
	t.Parallel()
	f := newFixture(t, reportJob, "shared")
	release, err := f.locks.Acquire(context.Background(), filepath.Join(f.root.Dir(), "shared"))
	if err != nil {
		t.Fatal(err)
	}
	f.run()
	f.at(time.Minute)
	deadline := time.Now().Add(testWait)
	for {
		busy := f.locks.Busy()
		if len(busy) == 1 && busy[0].Waiting == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job never queued for the workspace: %+v", busy)
		}
		time.Sleep(time.Millisecond)
	}
	if n := len(f.agent.requests()); n != 0 {
		t.Fatalf("agent ran while the workspace was held")
	}
	release()
	if s := f.report(); s.Status != StatusOK {
		t.Errorf("summary = %+v", s)
	}
}

func TestSchedulerNeverRunsADisabledJob(t *testing.T) {
	t.Parallel()
	f := newFixture(t, `
jobs:
  - {name: on, schedule: "* * * * *", instruction: on}
  - {name: off, schedule: "* * * * *", instruction: off, enabled: false}
`)
	f.run()
	f.at(time.Minute)
	if s := f.report(); s.Job != "on" {
		t.Errorf("ran %s", s.Job)
	}
	f.at(2 * time.Minute)
	if s := f.report(); s.Job != "on" {
		t.Errorf("ran %s", s.Job)
	}
}

// On stop, a run that ends within the grace period is left to finish.
func TestSchedulerLetsRunsFinishWithinGrace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, reportJob, "shared")
	running, release := make(chan struct{}), make(chan struct{})
	cancelled := make(chan bool, 1)
	f.agent.run = func(ctx context.Context, req backend.Request) (backend.Result, error) {
		close(running)
		<-release
		cancelled <- ctx.Err() != nil
		return backend.Result{Text: "finished"}, nil
	}
	f.run()
	f.at(time.Minute)
	<-running
	f.cancel()
	close(release)
	if s := f.report(); s.Status != StatusOK {
		t.Errorf("summary = %+v", s)
	}
	if <-cancelled {
		t.Error("the run was cancelled within the grace period")
	}
	f.stopped()
}

// Past the grace period the run is cancelled (the runner then kills its process
// group) and still recorded.
func TestSchedulerCancelsRunsAfterGrace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, reportJob, "shared")
	running := make(chan struct{})
	f.agent.run = func(ctx context.Context, req backend.Request) (backend.Result, error) {
		close(running)
		<-ctx.Done()
		return backend.Result{ExitCode: -1, Signal: "killed", Stopped: "cancelled", Stderr: "terminated"}, nil
	}
	f.run()
	f.at(time.Minute)
	<-running
	f.cancel()
	f.clock.Advance(5 * time.Second)
	select {
	case <-f.done:
		t.Fatal("stopped before the grace period was over")
	default:
	}
	f.stopped()
	s := f.report()
	if s.Status != StatusFailed || s.Stopped != "cancelled" {
		t.Errorf("summary = %+v", s)
	}
	var m meta
	readJSON(t, filepath.Join(s.HistoryDir, metaFile), &m)
	if m.FinishedAt == nil || m.Stopped != "cancelled" {
		t.Errorf("meta = %+v", m)
	}
}

// Schedules run in their time zone: 9:00 in Paris is 8:00 UTC in winter.
func TestSchedulerUsesTheJobsTimeZone(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "timezone: Europe/Paris\njobs:\n  - {name: morning, schedule: '0 9 * * *', instruction: 'at {system_datetime}'}\n")
	f.run()
	f.at(19*time.Hour + 59*time.Minute) // 07:59 UTC the next day
	f.at(20 * time.Hour)
	s := f.report()
	if want := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC); !s.FiredAt.Equal(want) {
		t.Errorf("fired at %v, want %v", s.FiredAt, want)
	}
	if r := f.agent.requests(); len(r) != 1 || r[0].Prompt != "at 2026-12-01 09:00:00 CET" {
		t.Errorf("requests = %+v", r)
	}
}

func TestSchedulerRecordsAnAgentThatCannotStart(t *testing.T) {
	t.Parallel()
	f := newFixture(t, reportJob, "shared")
	f.agent.run = func(ctx context.Context, req backend.Request) (backend.Result, error) {
		return backend.Result{}, errors.New("claude: executable file not found")
	}
	f.run()
	f.at(time.Minute)
	s := f.report()
	if s.Status != StatusFailed || s.ExitCode == nil || *s.ExitCode != -1 || !strings.Contains(s.Error, "not found") {
		t.Errorf("summary = %+v", s)
	}
	var m meta
	readJSON(t, filepath.Join(s.HistoryDir, metaFile), &m)
	if m.Error == nil || !strings.Contains(*m.Error, "not found") {
		t.Errorf("meta = %+v", m)
	}
}

// claimsOnce hands each (job, tick) to the first asker only, as the shared state
// does across replicas; fail makes every claim fail.
type claimsOnce struct {
	mu    sync.Mutex
	taken map[string]bool
	fail  bool
}

func (c *claimsOnce) ClaimTick(_ context.Context, job string, tick time.Time) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail {
		return false, errors.New("database unreachable")
	}
	key := job + "@" + tick.String()
	if c.taken[key] {
		return false, nil
	}
	c.taken[key] = true
	return true, nil
}

func TestSchedulersSharingClaimsFireEachTickOnce(t *testing.T) {
	t.Parallel()
	claims := &claimsOnce{taken: map[string]bool{}}
	var fixtures []*fixture
	for range 3 {
		f := newFixture(t, reportJob, "shared")
		f.sched.opts.Claims = claims
		f.run()
		fixtures = append(fixtures, f)
	}
	for minute := 1; minute <= 3; minute++ {
		for _, f := range fixtures {
			f.clock.Set(start.Add(time.Duration(minute) * time.Minute))
		}
		for _, f := range fixtures {
			f.asleep()
		}
	}
	// Each tick's run reports once it ends; a tick fired twice would report twice.
	ticks := map[time.Time]int{}
	deadline := time.After(testWait)
	for total := 0; total < 3; {
		for _, f := range fixtures {
			select {
			case s := <-f.reports:
				ticks[s.FiredAt]++
				total++
			case <-deadline:
				t.Fatalf("runs reported: %v, want one for each of 3 ticks", ticks)
			default:
			}
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	for _, f := range fixtures {
		select {
		case s := <-f.reports:
			t.Fatalf("tick %s reported again", s.FiredAt)
		default:
		}
	}
	if len(ticks) != 3 {
		t.Fatalf("ticks fired: %v, want 3 distinct", ticks)
	}
}

func TestSchedulerDoesNotFireATickItCannotClaim(t *testing.T) {
	t.Parallel()
	f := newFixture(t, reportJob, "shared")
	f.sched.opts.Claims = &claimsOnce{fail: true}
	f.run()
	f.at(time.Minute)
	if got := f.agent.requests(); len(got) != 0 {
		t.Fatalf("fired a tick whose claim failed: %d runs", len(got))
	}
}
