package tui

import (
	"os"
	"path/filepath"
	"testing"
)

// The approval preview reads the workspace only: a key file named by the model, or a
// link out of the workspace, is not put on screen.
func TestPreviewReadsOnlyTheWorkspace(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	work, outside := filepath.Join(root, "work"), filepath.Join(root, "secret.txt")
	if err := os.MkdirAll(filepath.Join(work, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for path, content := range map[string]string{filepath.Join(work, "sub", "a.go"): "package a\n", outside: "key"} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(work, "link")); err != nil {
		t.Fatal(err)
	}
	read := readWorkspaceFile(work)
	if s, err := read("sub/a.go"); err != nil || s != "package a\n" {
		t.Fatalf("relative path inside: %q, %v", s, err)
	}
	if s, err := read(filepath.Join(work, "sub", "a.go")); err != nil || s != "package a\n" {
		t.Fatalf("absolute path inside: %q, %v", s, err)
	}
	for _, p := range []string{outside, "../secret.txt", "link"} {
		if s, err := read(p); err == nil {
			t.Errorf("%s was read: %q", p, s)
		}
	}
}
