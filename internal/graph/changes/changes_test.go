package changes

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

func TestParseDiff(t *testing.T) {
	t.Parallel()
	diff := `diff --git a/a.go b/a.go
index 1..2 100644
--- a/a.go
+++ b/a.go
@@ -3 +3 @@ func A() {
-	return 1
+	return 2
@@ -10,0 +11,3 @@ func B() {
+x
+y
+z
@@ -20,2 +22,0 @@
-gone
-gone
diff --git a/old.go b/old.go
deleted file mode 100644
--- a/old.go
+++ /dev/null
@@ -1,3 +0,0 @@
-package old
`
	hunks, err := ParseDiff([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	want := []Hunk{{"a.go", 3, 3}, {"a.go", 11, 13}, {"a.go", 22, 22}}
	if !reflect.DeepEqual(hunks, want) {
		t.Fatalf("hunks = %+v, want %+v", hunks, want)
	}
	if _, err := ParseDiff([]byte("+++ b/x.go\n@@ garbage @@\n")); err == nil {
		t.Fatal("a bad hunk header was accepted")
	}
}

const lib = `package lib

// Add adds.
func Add(a, b int) int {
	return a + b
}

func helper() int { return 1 }

func Double(x int) int { return Add(x, x) }

func Quad(x int) int { return Double(Double(x)) }
`

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestDetectChangesOnARealDiff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := t.TempDir()
	for rel, src := range map[string]string{"go.mod": "module example.com/d\n\ngo 1.26\n", "lib/lib.go": lib, "README.md": "x\n"} {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, root, "init", "-q")
	git(t, root, "add", ".")
	git(t, root, "commit", "-qm", "init")
	st, err := store.Open(filepath.Join(t.TempDir(), "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := index.Run(ctx, root, st, index.Options{Go: golang.DefaultOptions()}); err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(lib, "return a + b", "return b + a", 1)
	edited = strings.Replace(edited, "func helper() int { return 1 }", "func helper() int { return 2 }", 1)
	if err := os.WriteFile(filepath.Join(root, "lib", "lib.go"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte("y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hunks, err := Diff(ctx, root, "")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Map(ctx, st, "HEAD", hunks)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range rep.Changed {
		got = append(got, strings.TrimPrefix(c.QName, "example.com/d/lib.")+":"+c.Risk)
	}
	// Add has Double and Quad above it and is exported; helper has no dependents.
	if strings.Join(got, ",") != "Add:high,helper:low" {
		t.Fatalf("changed = %v", got)
	}
	if rep.Changed[0].Dependents != 2 || rep.Changed[0].Lines != 1 {
		t.Fatalf("Add: %+v", rep.Changed[0])
	}
	if !reflect.DeepEqual(rep.Unmapped, []string{"README.md"}) || !strings.Contains(rep.Heuristic, "heuristic") {
		t.Fatalf("report = %+v", rep)
	}
	if _, err := Diff(ctx, root, "no-such-ref"); err == nil || !strings.Contains(err.Error(), "no-such-ref") {
		t.Fatalf("bad base: %v", err)
	}
}
