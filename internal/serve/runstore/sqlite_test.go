package runstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// clock is a settable time source.
type clock struct{ ns atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.ns.Store(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).UnixNano())
	return c
}
func (c *clock) now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *clock) advance(d time.Duration) { c.ns.Add(int64(d)) }

func open(t *testing.T, path string, c *clock) *SQLite {
	t.Helper()
	s, err := OpenSQLite(path, Options{Now: c.now, Retention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestRunLifecycle(t *testing.T) {
	t.Parallel()
	c := newClock()
	s := open(t, filepath.Join(t.TempDir(), "runs.db"), c)
	ctx := t.Context()
	if err := s.Create(ctx, Run{ID: "r1", Workspace: "/w/a", Backend: "claude", Async: true, Request: json.RawMessage(`{"prompt":"hi"}`)}); err != nil {
		t.Fatal(err)
	}
	c.advance(time.Second)
	if err := s.Start(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendAttempt(ctx, "r1", Attempt{Index: 0, Usage: json.RawMessage(`{"input_tokens":3}`), ParseError: "not JSON", SessionID: "s"}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendAttempt(ctx, "r1", Attempt{Index: 1, ExitCode: 0}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendAttempt(ctx, "r1", Attempt{Index: 1}); err == nil || !strings.Contains(err.Error(), "already recorded") {
		t.Errorf("a second attempt 1: %v", err)
	}
	c.advance(time.Second)
	if err := s.Finish(ctx, "r1", Completed, json.RawMessage(`{"text":"ok"}`), ""); err != nil {
		t.Fatal(err)
	}
	r, err := s.Get(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	start := c.now().Add(-2 * time.Second)
	if r.Status != Completed || string(r.Result) != `{"text":"ok"}` || string(r.Request) != `{"prompt":"hi"}` || !r.Async ||
		!r.CreatedAt.Equal(start) || !r.StartedAt.Equal(start.Add(time.Second)) || !r.FinishedAt.Equal(c.now()) ||
		!r.ExpiresAt.Equal(c.now().Add(time.Hour)) {
		t.Errorf("run %+v", r)
	}
	if len(r.Attempts) != 2 || r.Attempts[0].ParseError != "not JSON" || string(r.Attempts[0].Usage) != `{"input_tokens":3}` || r.Attempts[1].Usage != nil {
		t.Errorf("attempts %+v", r.Attempts)
	}
}

func TestAFinalStatusIsKept(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "runs.db"), newClock())
	ctx := t.Context()
	if err := s.Create(ctx, Run{ID: "r", Status: Running}); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, "r", Cancelled, nil, "cancelled by the client"); err != nil {
		t.Fatal(err)
	}
	// The worker finishes late: its result must not undo the cancel.
	err := s.Finish(ctx, "r", Completed, json.RawMessage(`{}`), "")
	var fe *FinishedError
	if !errors.As(err, &fe) || fe.Status != Cancelled || !errors.Is(err, ErrFinished) {
		t.Errorf("late finish: %v", err)
	}
	if err := s.Start(ctx, "r"); !errors.Is(err, ErrFinished) {
		t.Errorf("start after the end: %v", err)
	}
	r, _ := s.Get(ctx, "r")
	if r.Status != Cancelled || r.Error != "cancelled by the client" || r.Result != nil {
		t.Errorf("run %+v", r)
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "runs.db"), newClock())
	ctx := t.Context()
	if err := s.Create(ctx, Run{ID: "r"}); err != nil {
		t.Fatal(err)
	}
	notFound := map[string]error{
		"start":          s.Start(ctx, "nope"),
		"finish":         s.Finish(ctx, "nope", Failed, nil, "x"),
		"append attempt": s.AppendAttempt(ctx, "nope", Attempt{}),
		"append events":  s.AppendEvents(ctx, "nope", []Event{{Type: "x"}}),
		"append none":    s.AppendEvents(ctx, "nope", nil),
		"delete":         s.Delete(ctx, "nope"),
	}
	_, notFound["get"] = s.Get(ctx, "nope")
	_, notFound["events"] = s.Events(ctx, "nope", 0, 0)
	for op, err := range notFound {
		var nf *NotFoundError
		if !errors.As(err, &nf) || nf.ID != "nope" || !errors.Is(err, ErrNotFound) {
			t.Errorf("%s of an unknown run: %v, want a *NotFoundError", op, err)
		}
	}
	others := map[string]struct {
		err  error
		want string
	}{
		"duplicate id":       {s.Create(ctx, Run{ID: "r"}), "run already exists"},
		"empty id":           {s.Create(ctx, Run{}), "empty id"},
		"created final":      {s.Create(ctx, Run{ID: "x", Status: Completed}), "want queued or running"},
		"finish not final":   {s.Finish(ctx, "r", Running, nil, ""), "is not final"},
		"finish bad status":  {s.Finish(ctx, "r", "done", nil, ""), "is not final"},
		"list with a status": {func() error { _, err := s.List(ctx, Filter{Statuses: []Status{"done"}}); return err }(), `status "done"`},
	}
	for name, tc := range others {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, tc.err, tc.want)
		}
	}
	if err := s.Create(ctx, Run{ID: "r"}); !errors.Is(err, ErrExists) {
		t.Errorf("duplicate: %v", err)
	}
}

func TestEventsAreNumberedAcrossAppends(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "runs.db"), newClock())
	ctx := t.Context()
	if err := s.Create(ctx, Run{ID: "r", Status: Running}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendEvents(ctx, "r", []Event{{Type: "init", Seq: 99, Data: json.RawMessage(`{"a":1}`)}, {Type: "delta"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendEvents(ctx, "r", []Event{{Type: "result", Attempt: 1, Backend: "pi"}}); err != nil {
		t.Fatal(err)
	}
	all, err := s.Events(ctx, "r", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range all {
		got = append(got, fmt.Sprintf("%d:%d:%s:%s:%s", e.Seq, e.Attempt, e.Backend, e.Type, e.Data))
	}
	if want := `1:0::init:{"a":1} 2:0::delta: 3:1:pi:result:`; strings.Join(got, " ") != want {
		t.Errorf("got %s\nwant %s", strings.Join(got, " "), want)
	}
	page, _ := s.Events(ctx, "r", 1, 1)
	if len(page) != 1 || page[0].Seq != 2 {
		t.Errorf("page after 1: %+v", page)
	}
}

func TestDeleteRemovesAttemptsAndEvents(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "runs.db"), newClock())
	ctx := t.Context()
	for _, id := range []string{"a", "b"} {
		if err := s.Create(ctx, Run{ID: id}); err != nil {
			t.Fatal(err)
		}
		_ = s.AppendAttempt(ctx, id, Attempt{})
		_ = s.AppendEvents(ctx, id, []Event{{Type: "x"}})
	}
	if err := s.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	var attempts, events int
	s.db.QueryRow(`SELECT count(*) FROM attempts`).Scan(&attempts)
	s.db.QueryRow(`SELECT count(*) FROM events`).Scan(&events)
	if attempts != 1 || events != 1 {
		t.Errorf("%d attempts and %d events left, want b's only", attempts, events)
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	c := newClock()
	s := open(t, filepath.Join(t.TempDir(), "runs.db"), c)
	ctx := t.Context()
	for i, ws := range []string{"/a", "/b", "/a", "/a"} {
		if err := s.Create(ctx, Run{ID: fmt.Sprint("r", i), Workspace: ws}); err != nil {
			t.Fatal(err)
		}
		c.advance(time.Second)
	}
	_ = s.Finish(ctx, "r2", Failed, nil, "boom")
	ids := func(f Filter) string {
		rs, err := s.List(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return strings.Join(out, " ")
	}
	tests := []struct {
		f    Filter
		want string
	}{
		{Filter{}, "r3 r2 r1 r0"},
		{Filter{Workspace: "/a"}, "r3 r2 r0"},
		{Filter{Statuses: []Status{Queued}, Workspace: "/a"}, "r3 r0"},
		{Filter{Statuses: []Status{Failed, Cancelled}}, "r2"},
		{Filter{Limit: 2}, "r3 r2"},
	}
	for _, tc := range tests {
		if got := ids(tc.f); got != tc.want {
			t.Errorf("%+v: got %s, want %s", tc.f, got, tc.want)
		}
	}
}

func TestFinishedRunsExpire(t *testing.T) {
	t.Parallel()
	c := newClock()
	s := open(t, filepath.Join(t.TempDir(), "runs.db"), c)
	ctx := t.Context()
	for _, id := range []string{"done", "running"} {
		if err := s.Create(ctx, Run{ID: id, Status: Running}); err != nil {
			t.Fatal(err)
		}
	}
	_ = s.AppendEvents(ctx, "done", []Event{{Type: "x"}})
	if err := s.Finish(ctx, "done", Completed, nil, ""); err != nil {
		t.Fatal(err)
	}
	c.advance(time.Hour - time.Millisecond)
	if _, err := s.Get(ctx, "done"); err != nil {
		t.Fatalf("a run is gone before its retention: %v", err)
	}
	c.advance(time.Millisecond)
	if _, err := s.Get(ctx, "done"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an expired run is still readable: %v", err)
	}
	if rs, _ := s.List(ctx, Filter{}); len(rs) != 1 || rs[0].ID != "running" {
		t.Errorf("list shows %+v", rs)
	}
	n, err := s.DeleteExpired(ctx)
	if err != nil || n != 1 {
		t.Errorf("DeleteExpired = %d, %v; want 1", n, err)
	}
	var events int
	s.db.QueryRow(`SELECT count(*) FROM events`).Scan(&events)
	if events != 0 {
		t.Errorf("%d events of the expired run left", events)
	}
	c.advance(100 * time.Hour)
	if _, err := s.Get(ctx, "running"); err != nil {
		t.Errorf("a running run expired: %v", err)
	}
}

func TestRestartKeepsFinishedRunsAndFailsRunningOnes(t *testing.T) {
	t.Parallel()
	c := newClock()
	path := filepath.Join(t.TempDir(), "sub", "runs.db")
	s, err := OpenSQLite(path, Options{Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	_ = s.Create(ctx, Run{ID: "finished", Status: Running})
	_ = s.Finish(ctx, "finished", Completed, json.RawMessage(`{"text":"kept"}`), "")
	_ = s.Create(ctx, Run{ID: "running", Status: Running})
	_ = s.Create(ctx, Run{ID: "queued"})
	if _, err := OpenSQLite(path, Options{}); err == nil || !strings.Contains(err.Error(), "another albert-code serve") {
		t.Errorf("a second server on the same file: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	c.advance(time.Minute)
	s2 := open(t, path, c)
	if s2.Interrupted() != 2 {
		t.Errorf("Interrupted() = %d, want 2", s2.Interrupted())
	}
	r, err := s2.Get(ctx, "finished")
	if err != nil || r.Status != Completed || string(r.Result) != `{"text":"kept"}` {
		t.Errorf("finished run after restart: %+v, %v", r, err)
	}
	for _, id := range []string{"running", "queued"} {
		r, err := s2.Get(ctx, id)
		if err != nil || r.Status != Failed || r.Error != InterruptedError || !r.FinishedAt.Equal(c.now()) || r.ExpiresAt.IsZero() {
			t.Errorf("%s after restart: %+v, %v", id, r, err)
		}
	}
}

func TestOpenRefusesForeignFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not a database ", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSQLite(garbage, Options{}); err == nil || !strings.Contains(err.Error(), garbage) {
		t.Errorf("garbage file: %v", err)
	}
	other := filepath.Join(dir, "other.db")
	s := open(t, other, newClock())
	if _, err := s.db.Exec(`PRAGMA user_version = 7`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := OpenSQLite(other, Options{}); err == nil || !strings.Contains(err.Error(), "schema version 7") {
		t.Errorf("newer schema: %v", err)
	}
}

func TestConcurrentWriters(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "runs.db"), newClock())
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	const runs, writers, perWriter = 4, 8, 10
	for i := range runs {
		if err := s.Create(ctx, Run{ID: fmt.Sprint("r", i), Status: Running}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, runs*writers*perWriter)
	for w := range writers {
		wg.Go(func() {
			for i := range perWriter {
				id := fmt.Sprint("r", (w+i)%runs)
				errs <- s.AppendEvents(ctx, id, []Event{{Type: "a"}, {Type: "b"}})
				if _, err := s.List(ctx, Filter{}); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	for i := range runs {
		evs, err := s.Events(ctx, fmt.Sprint("r", i), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for j, e := range evs {
			if e.Seq != int64(j+1) {
				t.Fatalf("run r%d: event %d has seq %d: numbering has a gap or a duplicate", i, j, e.Seq)
			}
		}
		total += len(evs)
	}
	if total != writers*perWriter*2 {
		t.Errorf("%d events stored, want %d", total, writers*perWriter*2)
	}
}

func TestConcurrentWritersKeepTheirConnections(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "runs.db"), newClock())
	ctx := t.Context()
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			if err := s.Create(ctx, Run{ID: fmt.Sprintf("run-%d", i), Status: Running}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if st := s.db.Stats(); st.MaxIdleClosed != 0 {
		t.Errorf("%d of %d connections closed after use: the pool keeps too few", st.MaxIdleClosed, st.OpenConnections+int(st.MaxIdleClosed))
	}
}

func TestWritesQueueInTheProcess(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "runs.db"), newClock())
	ctx := t.Context()
	if err := s.Create(ctx, Run{ID: "run", Status: Running}); err != nil {
		t.Fatal(err)
	}
	writes := map[string]func() error{
		"create":  func() error { return s.Create(ctx, Run{ID: "other"}) },
		"start":   func() error { return s.Start(ctx, "other") },
		"events":  func() error { return s.AppendEvents(ctx, "run", []Event{{Type: "text"}}) },
		"attempt": func() error { return s.AppendAttempt(ctx, "run", Attempt{Index: 1}) },
		"finish":  func() error { return s.Finish(ctx, "run", Completed, nil, "") },
		"delete":  func() error { return s.Delete(ctx, "other") },
		"expired": func() error { _, err := s.DeleteExpired(ctx); return err },
	}
	for _, name := range []string{"create", "start", "events", "attempt", "finish", "delete", "expired"} {
		s.write.Lock()
		done := make(chan error, 1)
		go func() { done <- writes[name]() }()
		select {
		case err := <-done:
			t.Errorf("%s went ahead while another write held the lock (%v)", name, err)
		case <-time.After(20 * time.Millisecond):
		}
		s.write.Unlock()
		if err := <-done; err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
