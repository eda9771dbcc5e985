package main

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // reads the SQLite run store after the run
)

// scenario is one load: a store, a count of replicas, and whether one is killed.
type scenario struct {
	name     string
	replicas int
	pg       bool
	kill     bool
	url, dir string
}

// outcome is what the store holds once every run has ended.
type outcome struct {
	completed, failed, stuck, twice int
	reasons                         map[string]int
	runsPerSec                      float64
	p50, p99                        time.Duration
}

// finalWait bounds the wait for the last run: the killed replica's runs end with
// its lease (10 s) and a beat (2 s); judgement, with room for a loaded machine.
const finalWait = 3 * time.Minute

func (sc scenario) run(ctx context.Context, bin, modelURL string, runs, workspaces int) (outcome, error) {
	var reps []*replica
	for i := range sc.replicas {
		store := "ALBERT_CODE_RUN_STORE=" + filepath.Join(sc.dir, "runs.db")
		if sc.pg {
			store = "ALBERT_CODE_DATABASE_URL=" + sc.url
		}
		r, err := startReplica(ctx, bin, sc.dir, fmt.Sprint("r", i), modelURL, store)
		if err != nil {
			return outcome{}, err
		}
		defer r.stop()
		reps = append(reps, r)
	}
	live := slices.Clone(reps)
	ids := make([]string, runs)
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, runs)
	// At most postersAtOnce posts in flight: serve caps one address at 64
	// connections (api.DefaultMaxConnsPerClient) and closes the ones above.
	posters := make(chan struct{}, postersAtOnce)
	for i := range runs {
		if sc.kill && i == runs/2 {
			wg.Wait() // the first half is accepted; some run, most queue
			mu.Lock()
			live[len(live)-1].kill()
			live = live[:len(live)-1]
			mu.Unlock()
		}
		mu.Lock()
		r := live[i%len(live)]
		mu.Unlock()
		wg.Go(func() {
			posters <- struct{}{}
			defer func() { <-posters }()
			body := fmt.Sprintf(`{"prompt":"run %d","workspace":"w%02d","async":true}`, i, i%workspaces)
			code, out, err := r.call(ctx, "POST", "/run", body)
			id, _ := out["runId"].(string)
			if err != nil || code != 202 || id == "" {
				errs <- fmt.Errorf("post run %d: %d %v %v", i, code, out, err)
				return
			}
			ids[i] = id
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		return outcome{}, err
	}
	// Poll through a live replica until every run has ended.
	reader := live[0]
	pending := slices.Clone(ids)
	deadline := time.Now().Add(finalWait)
	for len(pending) > 0 && time.Now().Before(deadline) {
		var left []string
		for _, id := range pending {
			_, out, err := reader.call(ctx, "GET", "/run/result?runId="+id, "")
			if st, _ := out["status"].(string); err != nil || st == "queued" || st == "running" {
				left = append(left, id)
			}
		}
		pending = left
		if len(pending) > 0 {
			time.Sleep(200 * time.Millisecond)
		}
	}
	rows, err := sc.rows(ctx)
	if err != nil {
		return outcome{}, err
	}
	return summarize(rows, len(pending)), nil
}

// runRow is a run as its store keeps it.
type runRow struct {
	status, errMsg             string
	created, started, finished time.Time
	attempts                   int
}

func (sc scenario) rows(ctx context.Context) ([]runRow, error) {
	const q = `SELECT status, error, created_at, started_at, finished_at, (SELECT count(*) FROM attempts a WHERE a.run_id = r.id) FROM runs r`
	var out []runRow
	if sc.pg {
		conn, err := pgx.Connect(ctx, sc.url)
		if err != nil {
			return nil, err
		}
		defer conn.Close(ctx)
		rows, _ := conn.Query(ctx, q)
		return pgx.CollectRows(rows, func(row pgx.CollectableRow) (runRow, error) {
			var r runRow
			var started, finished *time.Time
			err := row.Scan(&r.status, &r.errMsg, &r.created, &started, &finished, &r.attempts)
			if started != nil {
				r.started = *started
			}
			if finished != nil {
				r.finished = *finished
			}
			return r, err
		})
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(sc.dir, "runs.db")+"?mode=ro")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var r runRow
		var created int64
		var started, finished sql.NullInt64
		if err := rows.Scan(&r.status, &r.errMsg, &created, &started, &finished, &r.attempts); err != nil {
			return nil, err
		}
		r.created, r.started, r.finished = time.UnixMilli(created), time.UnixMilli(started.Int64), time.UnixMilli(finished.Int64)
		out = append(out, r)
	}
	return out, rows.Err()
}

func summarize(rows []runRow, stuck int) outcome {
	o := outcome{stuck: stuck, reasons: map[string]int{}}
	var waits []time.Duration
	var first, last time.Time
	for _, r := range rows {
		switch r.status {
		case "completed":
			o.completed++
			if last.IsZero() || r.finished.After(last) {
				last = r.finished
			}
		case "failed":
			o.failed++
			reason := r.errMsg
			if i := strings.Index(reason, ":"); i > 0 {
				reason = reason[:i]
			}
			o.reasons[reason]++
		}
		if r.attempts > 1 {
			o.twice++
		}
		if first.IsZero() || r.created.Before(first) {
			first = r.created
		}
		if !r.started.IsZero() && r.started.Unix() > 0 {
			waits = append(waits, r.started.Sub(r.created))
		}
	}
	slices.Sort(waits)
	if n := len(waits); n > 0 {
		o.p50, o.p99 = waits[n/2], waits[min(n-1, n*99/100)]
	}
	if span := last.Sub(first).Seconds(); span > 0 {
		o.runsPerSec = float64(o.completed) / span
	}
	return o
}

func (o outcome) row(sc scenario) string {
	var reasons []string
	for r, n := range o.reasons {
		reasons = append(reasons, fmt.Sprintf("%d: %s", n, r))
	}
	slices.Sort(reasons)
	killed := "no"
	if sc.kill {
		killed = "1 (SIGKILL)"
	}
	return fmt.Sprintf("| %s | %d | %s | %d | %d (%s) | %d | %d | %.1f | %s | %s |", sc.name, sc.replicas, killed,
		o.completed, o.failed, strings.Join(reasons, "; "), o.stuck, o.twice, o.runsPerSec,
		o.p50.Round(time.Millisecond), o.p99.Round(time.Millisecond))
}

// postersAtOnce is how many posts the bench keeps in flight, half serve's per-client
// connection cap.
const postersAtOnce = 32
