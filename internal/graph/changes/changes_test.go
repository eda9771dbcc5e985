package changes

import (
	"context"
	"fmt"
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

const libTest = `package lib

import "testing"

func TestQuad(t *testing.T) {
	if Quad(1) != 4 {
		t.Fatal("Quad")
	}
}
`

const mainGo = `package main

import "example.com/d/lib"

func main() { println(lib.Quad(2)) }
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
	files := map[string]string{"go.mod": "module example.com/d\n\ngo 1.26\n", "lib/lib.go": lib, "README.md": "x\n",
		"lib/lib_test.go": libTest, "cmd/d/main.go": mainGo}
	for rel, src := range files {
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
		got = append(got, fmt.Sprintf("%s:%v:%s", strings.TrimPrefix(c.QName, "example.com/d/lib."), c.RiskScore, c.Risk))
	}
	// Add is exported, and Double, Quad, TestQuad and main depend on it (4 within 3
	// hops, a test among them), in two communities ({Add, Double} and {Quad,
	// TestQuad, main}): 0.4·log2(5)/log2(65) + 0.25 + 0.2/3. helper is neither
	// exported, nor reached, nor tested: 0.15.
	if want := "Add:0.4709:medium,helper:0.15:low"; strings.Join(got, ",") != want {
		t.Fatalf("changed = %v, want %s; %+v", got, want, rep)
	}
	add := rep.Changed[0]
	if add.Dependents != 4 || add.Lines != 1 || !add.Factors.Tested || !add.Factors.PublicAPI || add.Community == nil {
		t.Fatalf("Add: %+v", add)
	}
	if rep.RiskScore != add.RiskScore || rep.Risk != "medium" {
		t.Fatalf("report risk = %v %s, want Add's", rep.RiskScore, rep.Risk)
	}
	var entries []string
	for _, p := range rep.Processes {
		entries = append(entries, strings.TrimPrefix(p.Entry, "example.com/d/")+"→"+strings.Join(p.Reaches, "+"))
	}
	// main first (a program), then the test; both reach Add, neither helper.
	if strings.Join(entries, ",") != "cmd/d.main→example.com/d/lib.Add,lib.TestQuad→example.com/d/lib.Add" || rep.ProcessesCount != 2 {
		t.Fatalf("processes = %v (%d)", entries, rep.ProcessesCount)
	}
	// Quad's community holds 3 of Add's dependents, Add's own the fourth (Double).
	if rep.CommunitiesCount != 2 || rep.Communities[0].Dependents != 3 || rep.Communities[1].Changed != 1 ||
		rep.Communities[1].ID != add.Community.ID || add.Factors.CommunitiesCrossed != 2 {
		t.Fatalf("communities = %+v", rep.Communities)
	}
	if !reflect.DeepEqual(rep.Unmapped, []string{"README.md"}) || !strings.Contains(rep.Heuristic, "heuristic") {
		t.Fatalf("report = %+v", rep)
	}
	if _, err := Diff(ctx, root, "no-such-ref"); err == nil || !strings.Contains(err.Error(), "no-such-ref") {
		t.Fatalf("bad base: %v", err)
	}
}

func TestRiskScore(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		f    RiskFactors
		want float64
		band string
	}{
		{"private, unreached, tested", RiskFactors{Tested: true}, 0, "low"},
		{"private, unreached, untested", RiskFactors{}, 0.15, "low"},
		{"exported, unreached, untested", RiskFactors{PublicAPI: true}, 0.4, "medium"},
		{"reach saturates", RiskFactors{Reach: reach(10 * ReachSaturation), Tested: true}, 0.4, "medium"},
		{"one community is no crossing", RiskFactors{Tested: true, CommunitiesCrossed: 1}, 0, "low"},
		{"communities saturate at 4", RiskFactors{Tested: true, CommunitiesCrossed: 9}, 0.2, "low"},
		{"everything", RiskFactors{Reach: 1, PublicAPI: true, CommunitiesCrossed: 4}, 1, "high"},
	} {
		if got := Score(tc.f); got != tc.want || band(got) != tc.band {
			t.Errorf("%s: Score = %v (%s), want %v (%s)", tc.name, got, band(got), tc.want, tc.band)
		}
	}
	if reach(0) != 0 || reach(ReachSaturation) != 1 || !(reach(3) > reach(2)) {
		t.Errorf("reach is not a saturating log: %v %v", reach(0), reach(ReachSaturation))
	}
}

func TestIsTestFile(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]bool{
		"lib/lib_test.go": true, "lib/lib.go": false, "pkg/test_util.py": true, "pkg/util_test.py": true,
		"src/a.test.ts": true, "src/a.spec.js": true, "tests/helpers.py": true, "src/__tests__/x.js": true,
		"src/latest.go": false, "": false,
	} {
		if isTestFile(file) != want {
			t.Errorf("isTestFile(%q) = %v", file, !want)
		}
	}
}
