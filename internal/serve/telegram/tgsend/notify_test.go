package tgsend_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// A cron job's long result reaches its chat whole through the scheduler, and
// the run remembers every message id so a reply finds its run.
func TestNotifierDeliversALongCronResultWhole(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	root, err := workspace.NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	file, err := cron.Parse("cron.yml", []byte("telegram_chat_id: -100777\njobs:\n  - {name: digest, schedule: '0 * * * *', instruction: summarise}\n"), start)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("a line of the digest, long enough to need several messages\n", 300) + "THE END"
	clock := cron.NewManualClock(start)
	reports := make(chan cron.Summary, 4)
	hist := filepath.Join(dir, ".cron")
	sched, err := cron.New(cron.Options{Jobs: file.Jobs, Root: root, Locks: workspace.NewLocks(-1), HistoryDir: hist,
		Agent: cron.AgentFunc(func(ctx context.Context, req backend.Request) (backend.Result, error) {
			return backend.Result{Text: long}, nil
		}),
		Notifier: f.sender, Clock: clock, Report: func(s cron.Summary) { reports <- s }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(f.ctx)
	done := make(chan error, 1)
	go func() { done <- sched.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("scheduler did not stop")
		}
	})
	if err := clock.WaitForWaiter(f.ctx); err != nil {
		t.Fatal(err)
	}
	clock.Set(start.Add(time.Hour))
	var s cron.Summary
	select {
	case s = <-reports:
	case <-f.ctx.Done():
		t.Fatal("no run recorded")
	}
	sent := f.srv.Messages(-100777)
	if len(sent) < 3 || !slices.Equal(s.TelegramMessageIDs, ids(sent)) || s.NotifyError != "" {
		t.Fatalf("summary ids %v (error %q), chat has %v", s.TelegramMessageIDs, s.NotifyError, ids(sent))
	}
	if !strings.Contains(sent[0].Plain, "[digest]") || !strings.HasSuffix(strings.TrimSpace(sent[len(sent)-1].Plain), "THE END") {
		t.Errorf("first %q..., last ...%q", sent[0].Plain[:40], sent[len(sent)-1].Plain)
	}
	entry, ok, err := cron.LookupMessage(hist, -100777, sent[len(sent)-1].MessageID)
	if err != nil || !ok || entry.Job != "digest" {
		t.Errorf("reply lookup of the last message: %+v %v %v", entry, ok, err)
	}
}
