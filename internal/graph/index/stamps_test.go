package index

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// A stamp is trusted only when the file's size, times and inode are those it
// recorded and the file was last written well before it was hashed; then the
// file is not read. A planted wrong hash proves which path the scan took.
func TestStampsSkipReadingUnchangedFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := writeTree(t, map[string]string{"a.py": "x = 1\n", "b.py": "y = 2\n"})
	stampPath := filepath.Join(t.TempDir(), stampsFile)

	first, err := ScanTreeStamped(ctx, root, Limits{}, stampPath)
	if err != nil || len(first.Files) != 2 {
		t.Fatalf("first scan: %+v, %v", first, err)
	}
	saved := loadStamps(stampPath)
	if len(saved) != 2 || saved["a.py"].Hash != first.Files[0].Hash {
		t.Fatalf("stamps saved: %+v", saved)
	}

	// Files written just before the hash are not trusted (racy window): read again.
	again, _ := ScanTreeStamped(ctx, root, Limits{}, stampPath)
	if again.Files[0].Hash != first.Files[0].Hash {
		t.Fatal("rescan changed a hash")
	}

	plant := func(rel, hash string, hashedAt time.Time) {
		m := loadStamps(stampPath)
		s := m[rel]
		s.Hash, s.HashedAt = hash, hashedAt.UnixNano()
		m[rel] = s
		if err := saveStamps(stampPath, m); err != nil {
			t.Fatal(err)
		}
	}
	hashOf := func(sc *Scan, rel string) string {
		for _, f := range sc.Files {
			if f.Rel == rel {
				return f.Hash
			}
		}
		return ""
	}
	later := time.Now().Add(time.Hour)
	plant("a.py", "planted", later)
	sc, _ := ScanTreeStamped(ctx, root, Limits{}, stampPath)
	if runtime.GOOS != "linux" {
		// No change time to check here: stamps are never trusted.
		if hashOf(sc, "a.py") == "planted" {
			t.Fatal("a stamp was trusted without a change time")
		}
		return
	}
	if hashOf(sc, "a.py") != "planted" {
		t.Fatalf("a trusted stamp was not used: a.py hashed %s", hashOf(sc, "a.py"))
	}
	// Once every stamp is trusted, a scan leaves the stamps file alone (a rename
	// over it would give it a new inode).
	plant("b.py", hashOf(sc, "b.py"), later)
	before, err := os.Stat(stampPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ScanTreeStamped(ctx, root, Limits{}, stampPath); err != nil {
		t.Fatal(err)
	}
	if after, err := os.Stat(stampPath); err != nil || !os.SameFile(before, after) {
		t.Fatalf("a scan that changed nothing rewrote the stamps (%v)", err)
	}

	// Any write moves the change time: the file is read, the planted hash is gone.
	plant("a.py", "planted", later)
	if err := os.WriteFile(filepath.Join(root, "a.py"), []byte("x = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, _ = ScanTreeStamped(ctx, root, Limits{}, stampPath)
	if h := hashOf(sc, "a.py"); h == "planted" || h == first.Files[0].Hash {
		t.Fatalf("an edited file kept a stale hash: %s", h)
	}

	// A stamp from within the racy window is not trusted either.
	plant("b.py", "planted", time.Now())
	sc, _ = ScanTreeStamped(ctx, root, Limits{}, stampPath)
	if hashOf(sc, "b.py") == "planted" {
		t.Fatal("a stamp taken right after the write was trusted")
	}

	// A corrupt stamps file means hashing everything, not an error.
	if err := os.WriteFile(stampPath, []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if sc, err := ScanTreeStamped(ctx, root, Limits{}, stampPath); err != nil || hashOf(sc, "b.py") != first.Files[1].Hash {
		t.Fatalf("corrupt stamps: %+v, %v", sc, err)
	}
}
