package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mkdirs(t *testing.T, root string, dirs ...string) {
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAncestorsAndDeeperUntrust(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	mkdirs(t, root, "src/app/vendor/lib", "src2", "other")
	s, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Trust(filepath.Join(root, "src")); err != nil {
		t.Fatal(err)
	}
	if err := s.Untrust(filepath.Join(root, "src/app/vendor")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dir  string
		want Decision
	}{
		{"src", Trusted},
		{"src/app", Trusted},
		{"src/app/vendor", Untrusted},
		{"src/app/vendor/lib", Untrusted},
		{"src2", Unknown}, // a sibling sharing the prefix "src"
		{"other", Unknown},
	}
	for _, tt := range tests {
		got, err := s.Status(filepath.Join(root, tt.dir))
		if err != nil || got != tt.want {
			t.Errorf("Status(%s) = %v, %v; want %v", tt.dir, got, err, tt.want)
		}
	}
	if err := s.Trust(filepath.Join(root, "src/app/vendor")); err != nil {
		t.Fatal(err)
	}
	if !s.IsTrusted(filepath.Join(root, "src/app/vendor/lib")) {
		t.Error("Trust must remove the folder from the untrusted list")
	}
}

func TestSymlinkResolved(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	mkdirs(t, root, "real")
	link := filepath.Join(root, "link")
	if err := os.Symlink(filepath.Join(root, "real"), link); err != nil {
		t.Fatal(err)
	}
	s, _ := Open(home)
	if err := s.Trust(link); err != nil {
		t.Fatal(err)
	}
	if !s.IsTrusted(filepath.Join(root, "real")) {
		t.Error("trusting a link must trust the real folder")
	}
	data, _ := os.ReadFile(s.Path())
	if strings.Contains(string(data), link) {
		t.Errorf("stored the link path, not the resolved one:\n%s", data)
	}
}

func TestWriteIsAtomicAndPersistent(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	s, _ := Open(home)
	if err := s.Trust(dir); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(home)
	if len(entries) != 1 || entries[0].Name() != FileName {
		t.Errorf("home holds %v, want only %s (no temp file left)", entries, FileName)
	}
	again, err := Open(home)
	if err != nil || !again.IsTrusted(dir) {
		t.Errorf("a new Store does not see the decision: %v", err)
	}
}

func TestCorruptFileIsNamedAndKept(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, FileName)
	const corrupt = "trusted = [\"/a\"\n"
	if err := os.WriteFile(path, []byte(corrupt), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(home); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Open error = %v, want it to name %s", err, path)
	}
	s := &Store{path: path}
	if err := s.Trust(t.TempDir()); err == nil {
		t.Error("Trust overwrote a corrupt file")
	}
	if data, _ := os.ReadFile(path); string(data) != corrupt {
		t.Errorf("corrupt file changed to %q", data)
	}
}

func TestRelativeEntryRejected(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, FileName)
	os.WriteFile(path, []byte("trusted = [\"/ok\", \"rel/dir\"]\n"), 0o600)
	if _, err := Open(home); err == nil || !strings.Contains(err.Error(), path+":1") || !strings.Contains(err.Error(), "rel/dir") {
		t.Errorf("err = %v", err)
	}
}
