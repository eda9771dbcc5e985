// Command cronbench runs a simulated day of the cron scheduler: -jobs jobs with
// a mix of schedules (seconds, minutes, hourly, daily in three time zones) on a
// manual clock, with a fake agent that answers at once and the real history on
// disk (run folders, summaries). It checks that every due tick fired exactly
// once, none lost, none skipped, and prints the counts and the wall time.
//
//	go run ./bench/cmd/cronbench [-jobs 100] [-hours 24] [-keep]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// stepWait bounds the wait for one tick's runs to be recorded; past it the
// missing runs count as lost.
const stepWait = 30 * time.Second

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "cronbench:", err)
		os.Exit(1)
	}
}

func run() error {
	jobs := flag.Int("jobs", 100, "jobs in the file")
	hours := flag.Int("hours", 24, "simulated hours")
	keep := flag.Bool("keep", false, "keep the history folder and print its path")
	flag.Parse()
	dir, err := os.MkdirTemp("", "cronbench-")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Println("history kept in", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	end := start.Add(time.Duration(*hours) * time.Hour)
	file, err := cron.Parse("cronbench.yml", []byte(jobFile(*jobs)), start)
	if err != nil {
		return err
	}
	root, err := workspace.NewRoot(filepath.Join(dir, "root"))
	if err != nil {
		return err
	}
	for i := range 10 {
		if err := os.MkdirAll(filepath.Join(root.Dir(), fmt.Sprintf("ws%d", i)), 0o755); err != nil {
			return err
		}
	}
	expected := map[string][]time.Time{}
	var all []time.Time // every due tick, sorted, to count those due by a time
	for _, j := range file.Jobs {
		for t := j.Schedule.Next(start); !t.IsZero() && !t.After(end); t = j.Schedule.Next(t) {
			expected[j.Name] = append(expected[j.Name], t)
			all = append(all, t)
		}
	}
	slices.SortFunc(all, time.Time.Compare)
	total := len(all)

	var mu sync.Mutex
	recorded := map[string][]time.Time{}
	var runs, skipped, missed, failed int
	progress := make(chan struct{}, 1)
	clock := cron.NewManualClock(start)
	history := filepath.Join(dir, "cron")
	sched, err := cron.New(cron.Options{
		Jobs: file.Jobs, Root: root, Locks: workspace.NewLocks(-1), HistoryDir: history, Clock: clock,
		Agent: cron.AgentFunc(func(ctx context.Context, req backend.Request) (backend.Result, error) {
			return backend.Result{Text: "checked: " + req.Prompt, Stopped: "exited"}, nil
		}),
		Report: func(s cron.Summary) {
			mu.Lock()
			switch s.Status {
			case cron.StatusOK:
				runs++
				recorded[s.Job] = append(recorded[s.Job], s.FiredAt)
			case cron.StatusSkipped:
				skipped++
			case cron.StatusMissed:
				missed++
			default:
				failed++
			}
			mu.Unlock()
			select {
			case progress <- struct{}{}:
			default:
			}
		},
	})
	if err != nil {
		return err
	}

	fmt.Printf("cronbench: %d jobs, %d simulated hours, %d runs due\n", len(file.Jobs), *hours, total)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	began := time.Now()
	go func() { done <- sched.Run(ctx) }()
	wakeups := 0
	for {
		if err := clock.WaitForWaiter(ctx); err != nil {
			return err
		}
		at, _ := clock.NextWaiter()
		if at.After(end) {
			break
		}
		clock.Set(at)
		wakeups++
		if !waitRecorded(&mu, &runs, &skipped, &missed, &failed, dueBy(all, at), progress) {
			break // the final check reports what is missing
		}
	}
	// The last ticks' runs may still be writing: wait for them before stopping.
	waitRecorded(&mu, &runs, &skipped, &missed, &failed, total, progress)
	cancel()
	if err := <-done; err != nil {
		return err
	}
	wall := time.Since(began)

	lost, dup := 0, 0
	for name, want := range expected {
		got := map[time.Time]int{}
		for _, t := range recorded[name] {
			got[t]++
		}
		for _, t := range want {
			switch got[t] {
			case 0:
				lost++
			case 1:
			default:
				dup += got[t] - 1
			}
		}
	}
	lines, err := countSummaryLines(history, file.Jobs)
	if err != nil {
		return err
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("due %d, fired %d, lost %d, duplicated %d, skipped %d, missed %d, failed %d, summary lines on disk %d\n",
		total, runs, lost, dup, skipped, missed, failed, lines)
	fmt.Printf("wall %v for %d simulated hours (%d scheduler wake-ups), %.0f runs/s with history on disk, heap in use %.1f MiB\n",
		wall.Round(time.Millisecond), *hours, wakeups, float64(runs)/wall.Seconds(), float64(ms.HeapInuse)/(1<<20))
	if lost != 0 || dup != 0 || skipped != 0 || missed != 0 || failed != 0 || runs != total || lines != total {
		return fmt.Errorf("FAIL: every due run must fire exactly once")
	}
	fmt.Println("ok: every due run fired once, none lost")
	return nil
}

// jobFile writes n jobs: a tenth on second schedules, most every k minutes with
// an offset, a fifth hourly, a tenth daily in three time zones.
func jobFile(n int) string {
	zones := []string{"Europe/Paris", "America/New_York", "Asia/Tokyo"}
	s := "jobs:\n"
	for i := range n {
		var sched, zone string
		switch {
		case i%10 == 0:
			sched = fmt.Sprintf("%d/%d * * * * *", i%15, 15+i%45)
		case i%10 <= 6:
			k := 1 + i%30
			sched = fmt.Sprintf("%d/%d * * * *", i%k, k)
		case i%10 <= 8:
			sched = fmt.Sprintf("%d * * * *", i%60)
		default:
			sched, zone = fmt.Sprintf("%d %d * * *", i%60, i%24), zones[i%3]
		}
		s += fmt.Sprintf("  - {name: job%03d, schedule: %q, instruction: \"check {job_name} at {system_datetime}\", workspace: ws%d, no_continue: true", i, sched, i%10)
		if zone != "" {
			s += ", timezone: " + zone
		}
		s += "}\n"
	}
	return s
}

// dueBy counts the ticks of the sorted all due at or before t.
func dueBy(all []time.Time, t time.Time) int {
	return sort.Search(len(all), func(i int) bool { return all[i].After(t) })
}

// waitRecorded waits until want ticks are recorded; false on a stall.
func waitRecorded(mu *sync.Mutex, runs, skipped, missed, failed *int, want int, progress <-chan struct{}) bool {
	for {
		mu.Lock()
		n := *runs + *skipped + *missed + *failed
		mu.Unlock()
		if n >= want {
			return true
		}
		select {
		case <-progress:
		case <-time.After(stepWait):
			return false
		}
	}
}

func countSummaryLines(history string, jobs []*cron.Job) (int, error) {
	n := 0
	for _, j := range jobs {
		f, err := os.Open(filepath.Join(history, j.Name+".jsonl"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return 0, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var s cron.Summary
			if json.Unmarshal(sc.Bytes(), &s) == nil && s.Status == cron.StatusOK {
				n++
			}
		}
		f.Close()
	}
	return n, nil
}
