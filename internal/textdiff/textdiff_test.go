package textdiff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		old, new       string
		want           string
		added, removed int
	}{
		{name: "equal", old: "a\nb\n", new: "a\nb\n", want: ""},
		{
			name: "one line changed", old: "a\nb\nc\n", new: "a\nB\nc\n",
			want:  "--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
			added: 1, removed: 1,
		},
		{
			name: "create", old: "", new: "x\ny\n",
			want:  "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n",
			added: 2,
		},
		{
			name: "no final newline", old: "a\n", new: "a\nb",
			want:  "--- a\n+++ b\n@@ -1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n",
			added: 1,
		},
		{
			name: "two hunks", old: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", new: "x\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ny\n",
			want:  "--- a\n+++ b\n@@ -1,4 +1,4 @@\n-1\n+x\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+y\n",
			added: 2, removed: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, added, removed := Unified("a", "b", tt.old, tt.new)
			if got != tt.want || added != tt.added || removed != tt.removed {
				t.Errorf("Unified = %q (+%d -%d), want %q (+%d -%d)", got, added, removed, tt.want, tt.added, tt.removed)
			}
		})
	}
}

// TestUnifiedAppliesWithPatch proves the output is a real unified diff: patch(1)
// turns the old text into the new one.
func TestUnifiedAppliesWithPatch(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("patch"); err != nil {
		t.Fatal("patch(1) is not installed: it checks that the diff applies")
	}
	var oldB, newB strings.Builder
	for i := range 200 {
		oldB.WriteString(strings.Repeat("x", i%7) + "\n")
		switch {
		case i%37 == 0:
			newB.WriteString("inserted\n" + strings.Repeat("x", i%7) + "\n")
		case i%23 == 0:
		default:
			newB.WriteString(strings.Repeat("x", i%7) + "\n")
		}
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte(oldB.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	diff, _, _ := Unified("f.txt", "f.txt", oldB.String(), newB.String())
	cmd := exec.Command("patch", "-s", file)
	cmd.Stdin = strings.NewReader(diff)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v\n%s\n%s", err, out, diff)
	}
	got, _ := os.ReadFile(file)
	if string(got) != newB.String() {
		t.Errorf("patched text differs from new text")
	}
}
