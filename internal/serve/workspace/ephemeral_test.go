package workspace

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestEphemeralIsPrivateAndRemovedWithReadOnlyContent(t *testing.T) {
	t.Parallel()
	tmp, err := Ephemeral(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(tmp.Dir)
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, %v; want 0700", info.Mode(), err)
	}
	// What a Go build leaves: a read-only module cache folder.
	ro := filepath.Join(tmp.Dir, "pkg", "mod")
	must(t, os.MkdirAll(ro, 0o755))
	must(t, os.WriteFile(filepath.Join(ro, "go.mod"), []byte("module x"), 0o444))
	must(t, os.Chmod(ro, 0o555))
	if err := tmp.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp.Dir); !os.IsNotExist(err) {
		t.Errorf("%s still exists: %v", tmp.Dir, err)
	}
}

func TestSweepRemovesOnlyOldEphemeralFolders(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	old, _ := Ephemeral(parent)
	fresh, _ := Ephemeral(parent)
	other := filepath.Join(parent, "not-ours")
	must(t, os.Mkdir(other, 0o755))
	long := time.Now().Add(-2 * time.Hour)
	must(t, os.Chtimes(old.Dir, long, long))
	must(t, os.Chtimes(other, long, long))
	n, err := Sweep(parent, time.Hour)
	if err != nil || n != 1 {
		t.Fatalf("removed %d, %v; want 1", n, err)
	}
	for dir, want := range map[string]bool{old.Dir: false, fresh.Dir: true, other: true} {
		if _, err := os.Stat(dir); (err == nil) != want {
			t.Errorf("%s exists=%v, want %v", dir, err == nil, want)
		}
	}
}
