package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	"github.com/etalab-ia/albert-code/internal/serve/pgstore"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// dayJobs: a job every minute and one every hour, 1,440 + 24 ticks a day.
const dayJobs = `
jobs:
  - name: minutely
    schedule: "* * * * *"
    instruction: "tick"
    workspace: shared
  - name: hourly
    schedule: "0 * * * *"
    instruction: "tick"
    workspace: shared
`

// cronDay runs three schedulers, as three replicas, on one database with an injected
// clock moved minute by minute over a day, and checks that each tick fired once.
func cronDay(ctx context.Context, url, dir string) error {
	day := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	root, err := workspace.NewRoot(filepath.Join(dir, "root"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(root.Dir(), "shared"), 0o755); err != nil {
		return err
	}
	var mu sync.Mutex
	fired := map[string]int{}
	var clocks []*cron.ManualClock
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { stop(); wg.Wait() }()
	for i := range 3 {
		st, err := pgstore.Open(ctx, url, pgstore.Options{Replica: fmt.Sprint("cron", i)})
		if err != nil {
			return err
		}
		defer st.Close()
		file, err := cron.Parse("day.yml", []byte(dayJobs), day)
		if err != nil {
			return err
		}
		clock := cron.NewManualClock(day)
		sched, err := cron.New(cron.Options{Jobs: file.Jobs, Root: root, Locks: workspace.NewLocks(-1), Clock: clock,
			HistoryDir: filepath.Join(dir, fmt.Sprint("hist", i)), Claims: st,
			Agent: cron.AgentFunc(func(context.Context, backend.Request) (backend.Result, error) {
				return backend.Result{Text: "ok", Stopped: "exited"}, nil
			}),
			Report: func(s cron.Summary) {
				mu.Lock()
				fired[s.Job+" "+s.FiredAt.Format(time.RFC3339)+" "+string(s.Status)]++
				mu.Unlock()
			}})
		if err != nil {
			return err
		}
		clocks = append(clocks, clock)
		wg.Go(func() { _ = sched.Run(runCtx) })
	}
	start := time.Now()
	want := 0
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, v := range fired {
			n += v
		}
		return n
	}
	for m := 1; m <= 24*60; m++ {
		now := day.Add(time.Duration(m) * time.Minute)
		for _, c := range clocks {
			if err := c.WaitForWaiter(ctx); err != nil {
				return err
			}
			c.Set(now)
		}
		want++
		if now.Minute() == 0 {
			want++
		}
		for deadline := time.Now().Add(30 * time.Second); count() < want; {
			if time.Now().After(deadline) {
				return fmt.Errorf("cron day: tick %s: %d runs recorded, want %d", now.Format(time.RFC3339), count(), want)
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
	for _, c := range clocks {
		_ = c.WaitForWaiter(ctx)
	}
	elapsed := time.Since(start)
	mu.Lock()
	defer mu.Unlock()
	twice, other := 0, 0
	for k, n := range fired {
		if n > 1 {
			twice++
		}
		if len(k) < 3 || k[len(k)-2:] != "ok" {
			other++
		}
	}
	fmt.Printf("cron, 3 schedulers on one PostgreSQL, a simulated day (injected clock, minute by minute): %d ticks due, %d fired, %d fired twice, %d not ok (skipped or missed); %s of wall time\n",
		want, len(fired), twice, other, elapsed.Round(time.Millisecond))
	if len(fired) != want || twice > 0 || other > 0 {
		return fmt.Errorf("cron day: each tick must fire once")
	}
	return nil
}
