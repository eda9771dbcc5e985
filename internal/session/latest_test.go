package session

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
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

// Once a scan has given every directory its pointer, a directory with none has no
// session and costs no scan; a folder created behind the pointers' back (an older
// albert-code) makes the store newer than the marker and brings the scan back.
func TestLatestKnowsADirectoryWithoutSessions(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	mustCreate(t, s, Meta{Cwd: "/w"})
	latest := func(cwd string) (string, int64, error) {
		before := s.scans.Load()
		id, err := s.Latest(cwd)
		return id, s.scans.Load() - before, err
	}
	if _, scans, err := latest("/empty"); !errors.Is(err, ErrNoSession) || scans != 1 {
		t.Fatalf("first lookup: %v after %d scans, want ErrNoSession after 1", err, scans)
	}
	if _, scans, err := latest("/empty"); !errors.Is(err, ErrNoSession) || scans != 0 {
		t.Fatalf("second lookup: %v after %d scans, want ErrNoSession after 0", err, scans)
	}
	// A session created by this version keeps the marker true.
	fresh := mustCreate(t, s, Meta{Cwd: "/new"})
	if id, scans, err := latest("/new"); err != nil || id != fresh.ID() || scans != 0 {
		t.Fatalf("new directory: %q, %v after %d scans; want %q after 0", id, err, scans, fresh.ID())
	}
	// An older albert-code writes a session folder and no pointer.
	time.Sleep(10 * time.Millisecond) // a coarse file-system clock must see the folder as newer
	old := filepath.Join(s.dir, "20261130-000000-0badcafe")
	if err := os.Mkdir(old, dirMode); err != nil {
		t.Fatal(err)
	}
	if err := writeMeta(old, Meta{SchemaVersion: SchemaVersion, ID: filepath.Base(old), Cwd: "/legacy"}, durable); err != nil {
		t.Fatal(err)
	}
	if id, scans, err := latest("/legacy"); err != nil || id != filepath.Base(old) || scans != 1 {
		t.Fatalf("legacy session: %q, %v after %d scans; want it after 1", id, err, scans)
	}
}
