package index

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// readGitHead must agree with git itself on every layout of .git it claims to
// read, and decline (so git answers) on the rest.
func TestReadGitHeadAgreesWithGit(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	if h, ok := readGitHead(repo); !ok || h != "" {
		t.Fatalf("unborn branch: %q %v, want \"\" true", h, ok)
	}
	os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n"), 0o644)
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-qm", "one")
	sub := filepath.Join(repo, "sub", "dir")
	os.MkdirAll(sub, 0o755)

	check := func(name, dir string) {
		t.Helper()
		want := git(t, dir, "rev-parse", "HEAD")
		got, ok := readGitHead(dir)
		if !ok || got != want {
			t.Errorf("%s: readGitHead = %q %v, git says %q", name, got, ok, want)
		}
		if g := gitHead(context.Background(), dir); g != want {
			t.Errorf("%s: gitHead = %q, git says %q", name, g, want)
		}
	}
	for _, d := range []string{repo, sub} {
		top, ok := RepoRoot(d)
		if want := git(t, d, "rev-parse", "--show-toplevel"); !ok || top != want {
			t.Errorf("RepoRoot(%s) = %q %v, git says %q", d, top, ok, want)
		}
	}
	check("loose ref", repo)
	check("subdirectory", sub)
	git(t, repo, "pack-refs", "--all")
	check("packed ref", repo)
	git(t, repo, "checkout", "-q", "--detach")
	check("detached", repo)
	git(t, repo, "checkout", "-q", "main")
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, repo, "worktree", "add", "-q", "-b", "side", wt)
	os.WriteFile(filepath.Join(wt, "b.go"), []byte("package a\n"), 0o644)
	git(t, wt, "add", "-A")
	git(t, wt, "commit", "-qm", "two")
	check("worktree", wt)
	if top, ok := RepoRoot(wt); !ok || top != git(t, wt, "rev-parse", "--show-toplevel") {
		t.Errorf("RepoRoot(worktree) = %q %v", top, ok)
	}
	check("main after worktree commit", repo)

	if h, ok := readGitHead(t.TempDir()); ok && h != "" {
		t.Errorf("outside a repository: %q", h)
	}
}
