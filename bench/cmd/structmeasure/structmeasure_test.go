package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fixture is a tiny module whose figures are known by hand: 54 production lines in
// a/a.go (34), b/b.go (4), internal/app/app.go (5) and internal/app/apptest (11); a test
// file and a testdata file that do not count; Classify of complexity 8, (*T).M of 2,
// three functions of 1 (average 2.60); under internal/app, 7 Test functions of which 4
// run the binary (directly, through a helper, passed as a value, through another
// package's getter that builds it).
const fixture = "testdata/fixture"

func measureFixture(t *testing.T, extra ...string) string {
	t.Helper()
	var out bytes.Buffer
	args := append([]string{"-dir", fixture, "-long", "20", "-duplicates", ""}, extra...)
	if err := run(args, &out); err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return out.String()
}

func wantLines(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("the report lacks %q; it is:\n%s", w, out)
		}
	}
}

func TestLinesPerPackageLeaveTestsAndTestdataOut(t *testing.T) {
	t.Parallel()
	out := measureFixture(t)
	wantLines(t, out,
		"**54 lines** in 4 files and 4 packages; **1 files over 20 lines** (a/a.go)",
		"| a | 34 | 1 |\n| internal/app/apptest | 11 | 1 |\n| internal/app | 5 | 1 |\n| b | 4 | 1 |\n",
		"| **total** (4 packages) | **54** | 4 |",
	)
	if strings.Contains(out, "skipped") || strings.Contains(out, "TestClassify") {
		t.Errorf("testdata or a test file was measured:\n%s", out)
	}
}

func TestComplexityCountsAsGocyclo(t *testing.T) {
	t.Parallel()
	out := measureFixture(t, "-funcs", "2")
	wantLines(t, out,
		"**average 2.60** over 5 functions",
		"| 8 | 19 | `a.Classify` | a/a.go:5 |\n| 2 | 6 | `a.(*T).M` | a/a.go:29 |\n\nThe 2 largest",
	)
}

func TestCountsTheAppTestsThatRunTheBinary(t *testing.T) {
	t.Parallel()
	out := measureFixture(t)
	wantLines(t, out,
		"Tests under internal/app that run the built binary: **4 of 7** Test functions, in 2 of 2 test files",
		"through internal/app/apptest:Binary, internal/app:run, internal/app:viaHelper",
		"the others: internal/app/sub:TestAlone, internal/app/sub:TestCallsALocalRun, internal/app:TestInProcess.",
	)
}

// A fake duplicates command shows what the real one is asked: a folder holding only
// the production files, and the pair size.
func TestDuplicatesAreAskedOfProductionFilesOnly(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "fake-duplicates")
	script := "#!/bin/sh\necho \"3 pairs of places (args: $*)\"\ncd \"$2\" && find . -type f | sort\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := measureFixture(t, "-duplicates", bin)
	wantLines(t, out,
		"Duplicate pairs of 12+ lines in production code: **3**",
		"--min-lines 12 --most 200",
		"./a/a.go\n./b/b.go\n./internal/app/app.go\n./internal/app/apptest/apptest.go\n```",
	)
	if strings.Contains(out, "_test.go") || strings.Contains(out, "skipped.go") || strings.Contains(out, "go.mod") {
		t.Errorf("duplicates was given more than the production files:\n%s", out)
	}
}

func TestACommitIsMeasuredInAWorktreeRemovedAfter(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	if err := os.CopyFS(repo, os.DirFS(fixture)); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@localhost", "-C", repo}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "before")
	if err := os.WriteFile(filepath.Join(repo, "b", "b.go"), []byte("package b\n\n// B grew.\nfunc B() int {\n\treturn 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-q", "-a", "-m", "after")

	var out bytes.Buffer
	if err := run([]string{"-repo", repo, "-commit", "HEAD~1", "-duplicates", ""}, &out); err != nil {
		t.Fatal(err)
	}
	wantLines(t, out.String(), "### Code structure of commit ", " before\n", "| b | 4 | 1 |")
	if n := strings.Count(git("worktree", "list", "--porcelain"), "worktree "); n != 1 {
		t.Errorf("%d worktrees after the measure, want the repository's own only", n)
	}
}

func TestBadInputNamesTheFlag(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-repo", fixture, "-commit", "no-such-commit"}, "-commit names a commit of -repo"},
		{[]string{"-dir", filepath.Join(t.TempDir(), "missing")}, "-dir names the folder to measure"},
		{[]string{"-dir", fixture, "extra"}, "name the commit with -commit or the folder with -dir"},
	} {
		err := run(tc.args, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run %v: error %v, want one saying %q", tc.args, err, tc.want)
		}
	}
}
