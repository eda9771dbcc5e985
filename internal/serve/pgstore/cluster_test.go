package pgstore

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

func TestADeadReplicasRunsAreFailedOnceWithTheReason(t *testing.T) {
	url := server.NewDatabase(t)
	ctx := testCtx(t)
	fast := Options{Heartbeat: 100 * time.Millisecond, LeaseTTL: 500 * time.Millisecond}
	dead := openPG(t, url, "dead", fast)
	var alive []*Store
	for _, name := range []string{"a1", "a2"} {
		alive = append(alive, openPG(t, url, name, fast))
	}
	for i := range 5 {
		if err := dead.Create(ctx, runstore.Run{ID: fmt.Sprint("d", i), Workspace: "/w", Backend: "x", Status: runstore.Running}); err != nil {
			t.Fatal(err)
		}
	}
	if err := alive[0].Create(ctx, runstore.Run{ID: "live", Workspace: "/w", Backend: "x", Status: runstore.Running}); err != nil {
		t.Fatal(err)
	}
	// The live replicas beat; "dead" never does, as a replica killed with SIGKILL.
	var reaped atomic.Int64
	kctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, s := range alive {
		wg.Go(func() { s.KeepAlive(kctx, func(n int, _ error) { reaped.Add(int64(n)) }) })
	}
	deadline := time.Now().Add(10 * time.Second)
	for reaped.Load() < 5 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	wg.Wait()
	if n := reaped.Load(); n != 5 {
		t.Fatalf("runs failed by the live replicas: %d, want exactly 5", n)
	}
	for i := range 5 {
		r, err := alive[1].Get(ctx, fmt.Sprint("d", i))
		if err != nil || r.Status != runstore.Failed || !strings.Contains(r.Error, "(dead) stopped") {
			t.Fatalf("orphan run: %+v, %v; want failed naming the dead replica", r, err)
		}
	}
	if r, _ := alive[0].Get(ctx, "live"); r.Status != runstore.Running {
		t.Fatalf("a live replica's run: %s, want running", r.Status)
	}
	// The dead replica comes back (a network cut healed): its late result is refused
	// and it learns its lease was lost.
	if err := dead.Finish(ctx, "d0", runstore.Completed, nil, ""); err == nil {
		t.Fatal("a reaped run took a late result")
	}
	if err := dead.Beat(ctx); err != ErrLeaseLost {
		t.Fatalf("beat after being reaped: %v, want ErrLeaseLost", err)
	}
}

func TestACronTickFiresOnceAcrossReplicas(t *testing.T) {
	url := server.NewDatabase(t)
	ctx := testCtx(t)
	replicas := []*Store{openPG(t, url, "a", Options{}), openPG(t, url, "b", Options{}), openPG(t, url, "c", Options{})}
	tick := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var won atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		for _, s := range replicas {
			wg.Go(func() {
				ok, err := s.ClaimTick(ctx, "nightly", tick)
				if err != nil {
					t.Error(err)
				}
				if ok {
					won.Add(1)
				}
			})
		}
	}
	wg.Wait()
	if won.Load() != 1 {
		t.Fatalf("claims won: %d, want 1", won.Load())
	}
	if ok, _ := replicas[0].ClaimTick(ctx, "nightly", tick.Add(time.Hour)); !ok {
		t.Fatal("the next tick was not claimable")
	}
}

func TestOnlyOneReplicaLeadsAndAnotherTakesOverWhenItStops(t *testing.T) {
	url := server.NewDatabase(t)
	ctx := testCtx(t)
	const ttl = 600 * time.Millisecond
	var leading atomic.Int64
	var most atomic.Int64
	var led sync.Map
	cancels := map[string]context.CancelFunc{}
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b", "c"} {
		s := openPG(t, url, name, Options{})
		lctx, cancel := context.WithCancel(ctx)
		cancels[name] = cancel
		wg.Go(func() {
			s.Lead(lctx, "telegram", ttl, func(ctx context.Context) {
				n := leading.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				led.Store(name, true)
				<-ctx.Done()
				leading.Add(-1)
			})
		})
	}
	waitFor(t, func() bool { return leading.Load() == 1 })
	var first string
	led.Range(func(k, _ any) bool { first = k.(string); return false })
	cancels[first]()
	waitFor(t, func() bool {
		n := 0
		led.Range(func(any, any) bool { n++; return true })
		return n == 2 && leading.Load() == 1
	})
	for _, c := range cancels {
		c()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Fatalf("replicas leading at once: %d, want 1", most.Load())
	}
}

func TestAWorkspaceIsNeverRunByTwoReplicasAtOnce(t *testing.T) {
	url := server.NewDatabase(t)
	ctx := testCtx(t)
	replicas := []*Store{openPG(t, url, "a", Options{}), openPG(t, url, "b", Options{}), openPG(t, url, "c", Options{})}
	var inside, most, done atomic.Int64
	var wg sync.WaitGroup
	for _, s := range replicas {
		for range 3 {
			wg.Go(func() {
				release, err := s.LockWorkspace(ctx, "/srv/work/shared")
				if err != nil {
					t.Error(err)
					return
				}
				n := inside.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(20 * time.Millisecond)
				inside.Add(-1)
				done.Add(1)
				release()
			})
		}
	}
	// Another workspace is not held up by the first.
	release, err := replicas[0].LockWorkspace(ctx, "/srv/work/other")
	if err != nil {
		t.Fatal(err)
	}
	release()
	wg.Wait()
	if most.Load() != 1 || done.Load() != 9 {
		t.Fatalf("runs inside at once: %d (want 1), done %d (want 9)", most.Load(), done.Load())
	}
}

func TestAWorkspaceWaitEndsWithItsContext(t *testing.T) {
	url := server.NewDatabase(t)
	a, b := openPG(t, url, "a", Options{}), openPG(t, url, "b", Options{})
	release, err := a.LockWorkspace(testCtx(t), "/w")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := b.LockWorkspace(ctx, "/w"); err == nil {
		t.Fatal("took a held workspace")
	}
	release()
	r2, err := b.LockWorkspace(testCtx(t), "/w")
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	r2()
}

func TestADeadReplicasWorkspaceLockIsFreed(t *testing.T) {
	url := server.NewDatabase(t)
	a, b := openPG(t, url, "a", Options{}), openPG(t, url, "b", Options{})
	relB, err := b.LockWorkspace(testCtx(t), "/w")
	if err != nil {
		t.Fatal(err)
	}
	defer relB() // gives the dead connection back, for the pool's Close
	// The holder's session ends, as when its process dies or its connection is cut.
	var ended bool
	if err := a.pool.QueryRow(testCtx(t), `SELECT bool_and(pg_terminate_backend(pid)) FROM pg_locks
		WHERE locktype = 'advisory' AND granted`).Scan(&ended); err != nil || !ended {
		t.Fatalf("end the holder's session: %v, %v", ended, err)
	}
	release, err := a.LockWorkspace(testCtx(t), "/w")
	if err != nil {
		t.Fatalf("lock after the holder died: %v", err)
	}
	release()
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 15 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Workspace locks are held for whole runs: with them in the store's own pool, a
// replica with as many busy workspaces as connections could not write its runs'
// events, and every run waited for the others forever.
func TestBusyWorkspacesLeaveTheStoreItsConnections(t *testing.T) {
	s := openPG(t, server.NewDatabase(t), "a", Options{MaxConns: 2, MaxLocks: 8})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range 4 {
		release, err := s.LockWorkspace(ctx, fmt.Sprint("/w", i))
		if err != nil {
			t.Fatal(err)
		}
		defer release()
	}
	if err := s.Create(ctx, runstore.Run{ID: "r", Workspace: "/w0", Backend: "x"}); err != nil {
		t.Fatalf("create with four workspaces held: %v", err)
	}
	if err := s.AppendEvents(ctx, "r", []runstore.Event{{Type: "text"}}); err != nil {
		t.Fatalf("events with four workspaces held: %v", err)
	}
}
