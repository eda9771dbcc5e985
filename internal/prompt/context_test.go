package prompt

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gitRepo makes a repository on branch trunk with 60 top-level files, 7 commits
// (the last with a 300-character subject) and 25 untracked files.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("these tests need git on PATH")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "trunk")
	for i := range 60 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("f%02d.go", i)), "package p\n")
	}
	run("add", ".")
	for i := 1; i <= 6; i++ {
		run("commit", "-q", "--allow-empty", "-m", fmt.Sprintf("commit number %d", i))
	}
	run("commit", "-q", "--allow-empty", "-m", "long "+strings.Repeat("é", 150))
	for i := range 25 {
		writeFile(t, filepath.Join(dir, "new", fmt.Sprintf("n%02d", i), "x"), "x")
		writeFile(t, filepath.Join(dir, fmt.Sprintf("u%02d.txt", i)), "x")
	}
	return dir
}

func TestGatherContextInATrustedRepository(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t)
	got := GatherContext(context.Background(), ContextInput{Dir: dir, Trusted: true})
	for _, want := range []string{
		"# Project context",
		"Top-level entries (50 of 86): ",
		"f00.go", "new/",
		"Git branch: trunk",
		"Git status (20 of 26 changed paths):\n?? new/",
		"Recent commits:\n",
		"commit number 6", "commit number 3",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("context lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "commit number 2") {
		t.Errorf("more than %d commits:\n%s", recentCommits, got)
	}
	if strings.Contains(got, ".git/") {
		t.Errorf(".git is listed:\n%s", got)
	}
	for l := range strings.SplitSeq(got, "\n") {
		if strings.HasPrefix(l, "Top-level") {
			continue
		}
		if len(l) > maxLine+len("…") || strings.ContainsRune(l, '\uFFFD') {
			t.Errorf("line of %d bytes not cut cleanly: %q", len(l), l)
		}
	}
}

func TestGatherContextRunsNoGitInAnUntrustedFolder(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t)
	got := GatherContext(context.Background(), ContextInput{Dir: dir})
	if !strings.Contains(got, "Top-level entries") || strings.Contains(got, "Git") {
		t.Errorf("untrusted folder:\n%s", got)
	}
}

func TestGatherContextOutsideARepository(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "notes.md"), "x")
	start := time.Now()
	got := GatherContext(context.Background(), ContextInput{Dir: dir, Trusted: true})
	if !strings.Contains(got, "Top-level entries (1 of 1): notes.md") || strings.Contains(got, "Git") {
		t.Errorf("no repository:\n%s", got)
	}
	if d := time.Since(start); d > contextTimeout {
		t.Errorf("took %v", d)
	}
	if got := GatherContext(context.Background(), ContextInput{Dir: t.TempDir()}); !strings.Contains(got, "is empty") {
		t.Errorf("empty folder:\n%s", got)
	}
}

func TestGatherContextLeavesGitOutWhenTimeIsUp(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := GatherContext(ctx, ContextInput{Dir: dir, Trusted: true})
	if !strings.Contains(got, "Top-level entries") || strings.Contains(got, "Git") {
		t.Errorf("cancelled:\n%s", got)
	}
}

func TestGatherContextDoesNotSummariseHomeOrRoot(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	writeFile(t, filepath.Join(home, "secret-project-name"), "x")
	for _, dir := range []string{home, "/"} {
		got := GatherContext(context.Background(), ContextInput{Dir: dir, Home: home, Trusted: true})
		if !strings.Contains(got, "is not a project folder") || strings.Contains(got, "Top-level") || strings.Contains(got, "secret-project-name") {
			t.Errorf("%s:\n%s", dir, got)
		}
	}
}
