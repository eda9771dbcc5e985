package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func inode(t *testing.T, path string) uint64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Sys().(*syscall.Stat_t).Ino
}

func TestWriteCreatesParentDirs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res := run(t, Write(Env{WorkDir: dir}), WriteParams{Path: "a/b/c.txt", Content: "one\ntwo\n"})
	wantOK(t, res)
	if res.Output != "Created a/b/c.txt (2 lines)" {
		t.Errorf("output = %q", res.Output)
	}
	got, err := os.ReadFile(filepath.Join(dir, "a/b/c.txt"))
	if err != nil || string(got) != "one\ntwo\n" {
		t.Fatalf("file = %q, %v", got, err)
	}
	info, _ := os.Stat(filepath.Join(dir, "a/b/c.txt"))
	if info.Mode().Perm() != newFileMode {
		t.Errorf("new file mode = %v", info.Mode().Perm())
	}
	d := res.Display.(FileDiff)
	if !d.Created || d.Added != 2 || !strings.Contains(d.Unified, "--- /dev/null\n+++ b/a/b/c.txt\n") {
		t.Errorf("display = %+v", d)
	}
}

// TestWriteIsAtomic proves the replace goes through a new file renamed into place:
// the inode changes, the mode is kept, and no temporary file is left behind.
func TestWriteIsAtomic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(path, []byte("echo old\n"), 0o750); err != nil {
		t.Fatal(err)
	}
	before := inode(t, path)
	res := run(t, Write(Env{WorkDir: dir}), WriteParams{Path: "run.sh", Content: "echo new\n"})
	wantOK(t, res)
	if inode(t, path) == before {
		t.Error("file was rewritten in place, not replaced by rename")
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o750 {
		t.Errorf("mode = %v, want 0750 kept", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only run.sh", len(entries))
	}
	d := res.Display.(FileDiff)
	if d.Created || d.Old != "echo old\n" || d.Added != 1 || d.Removed != 1 {
		t.Errorf("display = %+v", d)
	}
}

func TestWriteThroughSymlinkKeepsLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"real.txt": "old\n"})
	if err := os.Symlink("real.txt", filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	wantOK(t, run(t, Write(Env{WorkDir: dir}), WriteParams{Path: "link.txt", Content: "new\n"}))
	if fi, _ := os.Lstat(filepath.Join(dir, "link.txt")); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a file")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "real.txt")); string(got) != "new\n" {
		t.Errorf("target = %q", got)
	}
}

func TestWriteOntoDirectoryFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"d/x": ""})
	wantError(t, run(t, Write(Env{WorkDir: dir}), WriteParams{Path: "d", Content: "x"}), "is a directory")
}
