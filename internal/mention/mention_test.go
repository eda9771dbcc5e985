package mention

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestExpand(t *testing.T) {
	dir := workspace(t, map[string]string{
		"main.go":        "package main\n",
		"src/a.go":       "package src // a\n",
		"with space.txt": "spaced\n",
		"ticks.md":       "```go\nx\n```\n",
		"blob.bin":       "\x00\x01\x02",
		"pkg/doc.go":     "package pkg\n",
	})
	tests := []struct{ name, text, want string }{
		{"no mention", "explain this repository", "explain this repository"},
		{"one file", "explain @main.go", "explain @main.go\n\nContents of main.go:\n```\npackage main\n```"},
		{"sentence end", "compare @main.go and @src/a.go.", "compare @main.go and @src/a.go.\n\nContents of main.go:\n```\npackage main\n```\n\nContents of src/a.go:\n```\npackage src // a\n```"},
		{"e-mail and handle", "write to bob@example.com or @nobody", "write to bob@example.com or @nobody"},
		{"twice", "@main.go then @main.go", "@main.go then @main.go\n\nContents of main.go:\n```\npackage main\n```"},
		{"quoted", `read @"with space.txt"`, "read @\"with space.txt\"\n\nContents of with space.txt:\n```\nspaced\n```"},
		{"in parentheses", "(see @main.go)", "(see @main.go)\n\nContents of main.go:\n```\npackage main\n```"},
		{"backticks inside", "@ticks.md", "@ticks.md\n\nContents of ticks.md:\n````\n```go\nx\n```\n````"},
		{"directory", "look in @pkg", "look in @pkg\n\nAttached: pkg/ (a directory; list it with your tools)"},
		{"binary", "@blob.bin", "@blob.bin\n\nAttached: blob.bin (a binary file of 3 bytes, not shown)"},
	}
	for _, tt := range tests {
		if got := Expand(tt.text, dir); got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestAbsolutePath(t *testing.T) {
	dir := workspace(t, map[string]string{"notes.txt": "n\n"})
	path := filepath.Join(dir, "notes.txt")
	if got := Expand("@"+path, t.TempDir()); !strings.HasSuffix(got, "Contents of "+path+":\n```\nn\n```") {
		t.Fatalf("got %q", got)
	}
}

func TestCaps(t *testing.T) {
	quarter := strings.Repeat("x", 250<<10) + "\n"
	dir := workspace(t, map[string]string{
		"big.log": strings.Repeat("y", maxFileBytes+1),
		"1.txt":   quarter, "2.txt": quarter, "3.txt": quarter, "4.txt": quarter, "5.txt": quarter,
	})
	got := Expand("@big.log", dir)
	if !strings.Contains(got, "Attached: big.log (262145 bytes, too large to include") || strings.Contains(got, "yyy") {
		t.Errorf("a file over 256 KiB: %q", got[:min(len(got), 200)])
	}
	got = Expand("@1.txt @2.txt @3.txt @4.txt @5.txt", dir)
	if n := strings.Count(got, "Contents of "); n != 4 {
		t.Errorf("%d files included, want 4 within 1 MiB", n)
	}
	if !strings.Contains(got, "Attached: 5.txt (256001 bytes, not included: the prompt already holds 1024004 bytes of files; read it)") {
		t.Errorf("the fifth file is not named: %q", got[len(got)-200:])
	}
}
