package session

import (
	"os"
	"path/filepath"
	"testing"
)

// Latest answers from the directory's pointer without reading the store, and falls
// back to reading it when the pointer is missing, stale, corrupt or for another
// directory.
func TestLatestFollowsThePointerAndFallsBack(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	a := mustCreate(t, s, Meta{Cwd: "/w"})
	b := mustCreate(t, s, Meta{Cwd: "/w"})
	mustCreate(t, s, Meta{Cwd: "/w", ParentID: b.ID()}) // a sub-agent never moves the pointer
	check := func(why, want string, scans int64) {
		t.Helper()
		before := s.scans.Load()
		got, err := s.Latest("/w")
		if err != nil || got != want {
			t.Fatalf("%s: Latest = %q, %v; want %q", why, got, err, want)
		}
		if n := s.scans.Load() - before; n != scans {
			t.Errorf("%s: %d store scans, want %d", why, n, scans)
		}
	}
	check("fresh pointer", b.ID(), 0)
	if err := a.UpdateMeta(func(m *Meta) { m.Title = "again" }); err != nil {
		t.Fatal(err)
	}
	check("after the older session was written", a.ID(), 0)

	pointer := latestFile(s.dir, "/w")
	for _, tc := range []struct{ why, content string }{
		{"corrupt pointer", "garbage"},
		{"pointer of another directory", a.ID() + "\n/elsewhere\n"},
		{"pointer to a path", "../../etc\n/w\n"},
	} {
		if err := os.WriteFile(pointer, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		check(tc.why, a.ID(), 1)
		check(tc.why+", rewritten by the scan", a.ID(), 0)
	}
	if err := s.Delete(a.ID()); err != nil {
		t.Fatal(err)
	}
	check("pointed session deleted", b.ID(), 1)
	if err := os.RemoveAll(filepath.Join(s.dir, latestDir)); err != nil {
		t.Fatal(err)
	}
	check("no pointer at all", b.ID(), 1)
	// The pointer folder is not a session.
	metas, err := s.List(Filter{SubAgents: true})
	if err != nil || len(metas) != 2 {
		t.Errorf("List = %d sessions, %v; want 2 and no error", len(metas), err)
	}
}
