package index

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// gitHead is the commit checked out at root, or "" outside a git repository. It
// reads .git itself (HEAD, the ref, packed-refs, worktrees): every index run and
// freshness check asks, and starting git costs more than the rest of an
// incremental run's bookkeeping. Anything it does not recognise goes to git.
func gitHead(ctx context.Context, root string) string {
	if h, ok := readGitHead(root); ok {
		return h
	}
	out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// readGitHead resolves HEAD from the files of the repository enclosing dir; false
// when it cannot say for sure.
func readGitHead(dir string) (string, bool) {
	if os.Getenv("GIT_DIR") != "" || os.Getenv("GIT_WORK_TREE") != "" {
		return "", false
	}
	gitDir, ok := findGitDir(dir)
	if !ok {
		return "", false
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", false
	}
	h := strings.TrimSpace(string(head))
	ref, isRef := strings.CutPrefix(h, "ref: ")
	if !isRef {
		return h, isHash(h)
	}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = c
	}
	for _, d := range []string{gitDir, common} {
		if b, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(ref))); err == nil {
			h := strings.TrimSpace(string(b))
			return h, isHash(h)
		}
	}
	if h, ok := packedRef(filepath.Join(common, "packed-refs"), ref); ok {
		return h, true
	}
	// A branch with no commit yet (a fresh repository) has no ref file: no HEAD.
	return "", !strings.HasPrefix(ref, "refs/") || unbornOK(common)
}

// unbornOK reports whether a missing ref can be trusted to mean "no commit":
// only when the repository has no packed refs that could hold it in a form this
// reader does not parse.
func unbornOK(common string) bool {
	_, err := os.Stat(filepath.Join(common, "packed-refs"))
	return os.IsNotExist(err)
}

// findGitDir walks up from dir to the first .git, following a "gitdir:" file
// (worktrees, submodules).
func findGitDir(dir string) (string, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		p := filepath.Join(dir, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return p, true
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return "", false
			}
			target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
			if !ok {
				return "", false
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(dir, target)
			}
			return target, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func packedRef(name, ref string) (string, bool) {
	f, err := os.Open(name)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if h, r, ok := strings.Cut(line, " "); ok && r == ref && isHash(h) {
			return h, true
		}
	}
	return "", false
}

// isHash accepts SHA-1 and SHA-256 object names.
func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// RepoRoot is the top of the git working tree enclosing dir (the folder that
// holds .git, a directory or a worktree's file), read without starting git;
// false outside a repository or when GIT_DIR or GIT_WORK_TREE redirect git.
func RepoRoot(dir string) (string, bool) {
	if os.Getenv("GIT_DIR") != "" || os.Getenv("GIT_WORK_TREE") != "" {
		return "", false
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
