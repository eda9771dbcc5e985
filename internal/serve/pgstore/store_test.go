package pgstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/proctrack"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

func forEachBackend(t *testing.T, test func(t *testing.T, open func(runstore.Options) runstore.Store)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			test(t, func(o runstore.Options) runstore.Store { return b.open(t, o) })
		})
	}
}

func TestRunLifecycle(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(runstore.Options) runstore.Store) {
		ctx := testCtx(t)
		st := open(runstore.Options{})
		req := json.RawMessage(`{"prompt":"hi"}`)
		if err := st.Create(ctx, runstore.Run{ID: "a", Workspace: "/w", Backend: "native", Request: req, Async: true}); err != nil {
			t.Fatal(err)
		}
		if err := st.Create(ctx, runstore.Run{ID: "a", Workspace: "/w", Backend: "native"}); !errors.Is(err, runstore.ErrExists) {
			t.Fatalf("second create: %v, want ErrExists", err)
		}
		if err := st.Start(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if err := st.AppendAttempt(ctx, "a", runstore.Attempt{Index: 1, ExitCode: 0, SessionID: "s1", Usage: json.RawMessage(`{"in":3}`)}); err != nil {
			t.Fatal(err)
		}
		if err := st.Finish(ctx, "a", runstore.Completed, json.RawMessage(`{"ok":true}`), ""); err != nil {
			t.Fatal(err)
		}
		var fin *runstore.FinishedError
		if err := st.Finish(ctx, "a", runstore.Cancelled, nil, "late"); !errors.As(err, &fin) || fin.Status != runstore.Completed {
			t.Fatalf("finish after finish: %v, want FinishedError with completed", err)
		}
		r, err := st.Get(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != runstore.Completed || string(r.Result) != `{"ok":true}` || string(r.Request) != `{"prompt":"hi"}` || !r.Async ||
			r.StartedAt.IsZero() || r.FinishedAt.IsZero() || r.ExpiresAt.IsZero() || len(r.Attempts) != 1 || r.Attempts[0].SessionID != "s1" {
			t.Fatalf("run = %+v", r)
		}
		if err := st.Start(ctx, "missing"); !errors.Is(err, runstore.ErrNotFound) {
			t.Fatalf("start missing: %v, want ErrNotFound", err)
		}
		if err := st.AppendAttempt(ctx, "missing", runstore.Attempt{Index: 1}); !errors.Is(err, runstore.ErrNotFound) {
			t.Fatalf("attempt on missing: %v, want ErrNotFound", err)
		}
		if err := st.Delete(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Get(ctx, "a"); !errors.Is(err, runstore.ErrNotFound) {
			t.Fatalf("get deleted: %v, want ErrNotFound", err)
		}
	})
}

func TestListFiltersAndExpiry(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(runstore.Options) runstore.Store) {
		ctx := testCtx(t)
		var mu sync.Mutex
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		st := open(runstore.Options{Retention: time.Hour, Now: clock})
		for i, ws := range []string{"/a", "/b", "/a"} {
			if err := st.Create(ctx, runstore.Run{ID: fmt.Sprint("r", i), Workspace: ws, Backend: "x", CreatedAt: now.Add(time.Duration(i) * time.Second)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Finish(ctx, "r0", runstore.Failed, nil, "boom"); err != nil {
			t.Fatal(err)
		}
		got, err := st.List(ctx, runstore.Filter{Workspace: "/a"})
		if err != nil || len(got) != 2 || got[0].ID != "r2" || got[1].ID != "r0" {
			t.Fatalf("list /a = %+v, %v; want r2, r0", got, err)
		}
		got, err = st.List(ctx, runstore.Filter{Statuses: []runstore.Status{runstore.Queued}})
		if err != nil || len(got) != 2 {
			t.Fatalf("list queued = %+v, %v; want 2", got, err)
		}
		if _, err := st.List(ctx, runstore.Filter{Statuses: []runstore.Status{"done"}}); err == nil {
			t.Fatal("list with a bad status: no error")
		}
		mu.Lock()
		now = now.Add(2 * time.Hour)
		mu.Unlock()
		if _, err := st.Get(ctx, "r0"); !errors.Is(err, runstore.ErrNotFound) {
			t.Fatalf("expired run: %v, want ErrNotFound", err)
		}
		if n, err := st.DeleteExpired(ctx); n != 1 || err != nil {
			t.Fatalf("DeleteExpired = %d, %v; want 1", n, err)
		}
	})
}

func TestEventsAreNumberedInOrderUnderConcurrentWriters(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(runstore.Options) runstore.Store) {
		ctx := testCtx(t)
		st := open(runstore.Options{})
		if err := st.Create(ctx, runstore.Run{ID: "e", Workspace: "/w", Backend: "x", Status: runstore.Running}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				for i := range 10 {
					evs := []runstore.Event{{Attempt: 1, Type: fmt.Sprint(w, "-", i), Data: json.RawMessage(`{}`)}, {Attempt: 1, Type: "pair"}}
					if err := st.AppendEvents(ctx, "e", evs); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		evs, err := st.Events(ctx, "e", 0, 0)
		if err != nil || len(evs) != 80 {
			t.Fatalf("events: %d, %v; want 80", len(evs), err)
		}
		for i, e := range evs {
			if e.Seq != int64(i+1) {
				t.Fatalf("event %d has seq %d", i, e.Seq)
			}
			if i%2 == 1 && e.Type != "pair" {
				t.Fatalf("a batch was split: event %d is %q", i, e.Type)
			}
		}
		page, err := st.Events(ctx, "e", 78, 5)
		if err != nil || len(page) != 2 || page[0].Seq != 79 {
			t.Fatalf("events after 78: %+v, %v", page, err)
		}
		if err := st.AppendEvents(ctx, "nope", []runstore.Event{{Type: "x"}}); !errors.Is(err, runstore.ErrNotFound) {
			t.Fatalf("events of a missing run: %v, want ErrNotFound", err)
		}
	})
}

func TestProcessGroupsAreRecordedAndForgotten(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(runstore.Options) runstore.Store) {
		ctx := testCtx(t)
		st := open(runstore.Options{})
		if err := st.Create(ctx, runstore.Run{ID: "g", Workspace: "/w", Backend: "x"}); err != nil {
			t.Fatal(err)
		}
		g := proctrack.Group{PGID: 4242, Start: 99}
		for range 2 {
			if err := st.AddGroup(ctx, "g", g); err != nil {
				t.Fatalf("add group (twice is no error): %v", err)
			}
		}
		if err := st.AddGroup(ctx, "missing", g); !errors.Is(err, runstore.ErrNotFound) {
			t.Fatalf("group of a missing run: %v, want ErrNotFound", err)
		}
		if err := st.RemoveGroup(ctx, "g", g); err != nil {
			t.Fatal(err)
		}
	})
}
