package workspace

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

func TestWaitersAreServedInArrivalOrder(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		l := NewLocks(-1)
		release, err := l.Acquire(t.Context(), "/ws")
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var order []int
		for i := range 5 {
			go func() {
				rel, err := l.Acquire(t.Context(), "/ws")
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				order = append(order, i)
				mu.Unlock()
				time.Sleep(time.Second)
				rel()
			}()
			synctest.Wait() // waiter i is queued before i+1 arrives
		}
		if b := l.Busy(); len(b) != 1 || b[0].Waiting != 5 {
			t.Fatalf("busy %+v, want /ws with 5 waiting", b)
		}
		release()
		release() // idempotent: must not hand the lock out twice
		time.Sleep(10 * time.Second)
		synctest.Wait()
		if len(order) != 5 || order[0] != 0 || order[4] != 4 {
			t.Errorf("served in order %v, want 0..4", order)
		}
		if b := l.Busy(); len(b) != 0 {
			t.Errorf("locks left behind: %+v", b)
		}
	})
}

func TestFullQueueSaysWhenToRetry(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		l := NewLocks(2)
		// One run of 80 s moves the average from 30 s to 0.2*80 + 0.8*30 = 40 s.
		rel, _ := l.Acquire(t.Context(), "/ws")
		time.Sleep(80 * time.Second)
		rel()

		rel, _ = l.Acquire(t.Context(), "/ws")
		for range 2 {
			go func() {
				if r, err := l.Acquire(t.Context(), "/ws"); err == nil {
					r()
				}
			}()
		}
		synctest.Wait()
		time.Sleep(15 * time.Second)
		_, err := l.Acquire(t.Context(), "/ws")
		var full *QueueFullError
		if !errors.Is(err, ErrQueueFull) || !errors.As(err, &full) {
			t.Fatalf("err %v, want a QueueFullError", err)
		}
		if full.Waiting != 2 || full.RetryAfter != 25*time.Second || full.Workspace != "/ws" {
			t.Errorf("got %+v, want 2 waiting, retry after 25s (40s average, 15s in)", full)
		}
		// Past the average, a quarter of it: 10 s, not a retry storm at 1 s.
		time.Sleep(60 * time.Second)
		if _, err := l.Acquire(t.Context(), "/ws"); !errors.As(err, &full) || full.RetryAfter != 10*time.Second {
			t.Errorf("late estimate: %v", err)
		}
		// Another workspace is not affected.
		if r, err := l.Acquire(t.Context(), "/other"); err != nil {
			t.Errorf("other workspace refused: %v", err)
		} else {
			r()
		}
		rel()
		synctest.Wait()
	})
}

func TestNoWaitingAllowedRefusesAtOnce(t *testing.T) {
	t.Parallel()
	l := NewLocks(0)
	rel, err := l.Acquire(t.Context(), "/ws")
	if err != nil {
		t.Fatal(err)
	}
	defer rel()
	if _, err := l.Acquire(t.Context(), "/ws"); !errors.Is(err, ErrQueueFull) {
		t.Errorf("err %v, want ErrQueueFull", err)
	}
}

func TestCancelledWaiterLeavesTheQueue(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		l := NewLocks(1)
		rel, _ := l.Acquire(t.Context(), "/ws")
		ctx, cancel := context.WithCancel(t.Context())
		errc := make(chan error)
		go func() {
			_, err := l.Acquire(ctx, "/ws")
			errc <- err
		}()
		synctest.Wait()
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want context.Canceled", err)
		}
		// Its place is free again: a new waiter fits in a queue of one.
		got := make(chan struct{})
		go func() {
			r, err := l.Acquire(t.Context(), "/ws")
			if err != nil {
				t.Error(err)
				return
			}
			close(got)
			r()
		}()
		synctest.Wait()
		if b := l.Busy(); len(b) != 1 || b[0].Waiting != 1 {
			t.Fatalf("busy %+v, want one waiter", b)
		}
		rel()
		<-got
		synctest.Wait()
		if b := l.Busy(); len(b) != 0 {
			t.Errorf("locks left behind: %+v", b)
		}
	})
}

// Many runs, some giving up at random moments: never two at once, and nothing left.
func TestLockUnderChurn(t *testing.T) {
	t.Parallel()
	l := NewLocks(-1)
	var inside, peak atomic.Int32
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(t.Context(), time.Duration(i%7)*200*time.Microsecond)
			defer cancel()
			rel, err := l.Acquire(ctx, "/ws")
			if err != nil {
				return
			}
			if n := inside.Add(1); n > peak.Load() {
				peak.Store(n)
			}
			time.Sleep(50 * time.Microsecond)
			inside.Add(-1)
			rel()
		})
	}
	wg.Wait()
	if peak.Load() != 1 {
		t.Errorf("%d runs held the workspace at once", peak.Load())
	}
	if b := l.Busy(); len(b) != 0 {
		t.Errorf("locks left behind: %+v", b)
	}
}

func TestEnqueueTakesAPlaceAtOnce(t *testing.T) {
	t.Parallel()
	l := NewLocks(1)
	first, err := l.Enqueue("/w")
	if err != nil {
		t.Fatal(err)
	}
	second, err := l.Enqueue("/w")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Enqueue("/w"); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("third place: %v, want a full queue", err)
	}
	release, err := first.Wait(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan func(), 1)
	go func() {
		r, err := second.Wait(t.Context())
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()
	release()
	(<-got)()
	if busy := l.Busy(); len(busy) != 0 {
		t.Errorf("still busy: %+v", busy)
	}
	// A ticket given up while the lock was free frees it.
	t3, _ := l.Enqueue("/w")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := t3.Wait(ctx); err == nil {
		t.Error("a cancelled wait took the lock")
	}
	if busy := l.Busy(); len(busy) != 0 {
		t.Errorf("abandoned ticket still holds: %+v", busy)
	}
}

func TestAcrossIsTakenAfterTheTurnAndReleasedBeforeTheNext(t *testing.T) {
	l := NewLocks(4)
	var log []string
	var mu sync.Mutex
	say := func(s string) { mu.Lock(); log = append(log, s); mu.Unlock() }
	l.Across(func(ctx context.Context, ws string) (func(), error) {
		say("across " + ws)
		return func() { say("release across") }, nil
	})
	rel, err := l.Acquire(context.Background(), "/w")
	if err != nil {
		t.Fatal(err)
	}
	second := make(chan func())
	go func() {
		r, err := l.Acquire(context.Background(), "/w")
		if err != nil {
			t.Error(err)
		}
		second <- r
	}()
	time.Sleep(20 * time.Millisecond)
	rel()
	(<-second)()
	want := []string{"across /w", "release across", "across /w", "release across"}
	if !slices.Equal(log, want) {
		t.Fatalf("order = %q, want %q", log, want)
	}
}

func TestAFailedAcrossLockFreesTheWorkspaceHere(t *testing.T) {
	l := NewLocks(4)
	l.Across(func(ctx context.Context, ws string) (func(), error) { return nil, errors.New("database down") })
	if _, err := l.Acquire(context.Background(), "/w"); err == nil || !strings.Contains(err.Error(), "database down") {
		t.Fatalf("acquire with a failing cross-server lock: %v", err)
	}
	if b := l.Busy(); len(b) != 0 {
		t.Fatalf("workspace still held here after the failure: %+v", b)
	}
}
