package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFailedMetaWriteLeavesNothing makes the rename fail (meta.json replaced by a
// non-empty folder) and checks that UpdateMeta reports it, keeps the old meta in
// memory, and leaves no temp file behind.
func TestFailedMetaWriteLeavesNothing(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	l := mustCreate(t, s, Meta{Model: "before"})
	path := filepath.Join(l.Dir(), metaFile)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(path, "blocker"), 0o700); err != nil {
		t.Fatal(err)
	}
	err := l.UpdateMeta(func(m *Meta) { m.Model = "after" })
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("UpdateMeta = %v, want an error naming %s", err, path)
	}
	if got := l.Meta().Model; got != "before" {
		t.Errorf("in-memory meta changed to %q by a failed write", got)
	}
	entries, _ := os.ReadDir(l.Dir())
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
}

// TestFolderNameIsTheID: a copied or hand-edited session answers to its folder name,
// which is what users see and type.
func TestFolderNameIsTheID(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	mkSession(t, s, Meta{ID: "20261130T045200-aaaaaaaa"})
	if err := os.Rename(filepath.Join(s.Dir(), "20261130T045200-aaaaaaaa"), filepath.Join(s.Dir(), "20261130T045200-bbbbbbbb")); err != nil {
		t.Fatal(err)
	}
	l, _ := mustOpen(t, s, "bbbb")
	if l.Meta().ID != "20261130T045200-bbbbbbbb" {
		t.Errorf("meta id = %q, want the folder name", l.Meta().ID)
	}
}
