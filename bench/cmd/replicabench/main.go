// Command replicabench measures albert-code serve on shared state: three replicas
// (real processes) on one PostgreSQL take 300 async runs over 30 workspaces from the
// fake model while one replica is killed with SIGKILL midway, and every run must end
// exactly once; the same load on one replica with SQLite and one with PostgreSQL gives
// the queue latency (started_at - created_at) and runs/s of each, in the same run;
// three cron schedulers on one database fire a simulated day of minute ticks on an
// injected clock, and each tick must fire once.
//
//	go build -o /tmp/albert-code ./cmd/albert-code
//	go run ./bench/cmd/replicabench -bin /tmp/albert-code
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/pgtest"
)

const (
	token = "replicabench-token-0123456789"
	model = "mistral-medium"
)

func main() {
	bin := flag.String("bin", "", "the albert-code binary (go build -o /tmp/albert-code ./cmd/albert-code)")
	runs := flag.Int("runs", 300, "runs per scenario")
	workspaces := flag.Int("workspaces", 30, "workspaces the runs spread over")
	delay := flag.Duration("delay", 200*time.Millisecond, "the fake model's time to first byte, per run")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "replicabench: -bin is required (go build -o /tmp/albert-code ./cmd/albert-code)")
		os.Exit(2)
	}
	if err := run(*bin, *runs, *workspaces, *delay); err != nil {
		fmt.Fprintln(os.Stderr, "replicabench:", err)
		os.Exit(1)
	}
}

func run(bin string, runs, workspaces int, delay time.Duration) error {
	// An interrupt still stops the replicas and the database server (the defers).
	sig, stopSig := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSig()
	ctx, cancel := context.WithTimeout(sig, 20*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "replicabench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	pg, err := pgtest.StartDir(os.TempDir())
	if err != nil {
		return err
	}
	defer pg.Stop()
	turns := make([]fakemodel.Turn, 3*runs+10)
	for i := range turns {
		turns[i] = fakemodel.Turn{Text: []string{"done"}, FirstByteDelay: delay}
	}
	fake, err := fakemodel.Start(fakemodel.Script{Models: []fakemodel.Model{{ID: model}}, Turns: turns})
	if err != nil {
		return err
	}
	defer fake.Close()
	fmt.Printf("replicabench: %d runs over %d workspaces, fake model %s to first byte, %d cores\n\n", runs, workspaces, delay, runtime.NumCPU())
	fmt.Println("| store | replicas | killed | completed | failed (reason) | stuck | ran twice | runs/s | queue p50 | queue p99 |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	scenarios := []scenario{
		{name: "SQLite", replicas: 1},
		{name: "PostgreSQL", replicas: 1, pg: true},
		{name: "PostgreSQL", replicas: 3, pg: true, kill: true},
	}
	for i, sc := range scenarios {
		sc.dir = filepath.Join(dir, fmt.Sprint("s", i))
		if sc.pg {
			if sc.url, err = pg.CreateDatabase(fmt.Sprint("bench", i)); err != nil {
				return err
			}
		}
		res, err := sc.run(ctx, bin, fake.URL(), runs, workspaces)
		if err != nil {
			return fmt.Errorf("%s ×%d: %w", sc.name, sc.replicas, err)
		}
		fmt.Println(res.row(sc))
	}
	fmt.Println()
	url, err := pg.CreateDatabase("cronday")
	if err != nil {
		return err
	}
	return cronDay(ctx, url, filepath.Join(dir, "cron"))
}
