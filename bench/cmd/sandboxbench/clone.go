package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// bareRepo makes a bare repository of n small files in one commit, in a temporary
// folder the returned function removes.
func bareRepo(n int) (string, func(), error) {
	tmp, err := os.MkdirTemp("", "sandboxbench-repo-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	src := filepath.Join(tmp, "src")
	for i := range n {
		p := filepath.Join(src, fmt.Sprintf("d%02d", i%50), fmt.Sprintf("f%05d.txt", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(fmt.Sprintf("file %d\n", i)), 0o644); err != nil {
			cleanup()
			return "", nil, err
		}
	}
	bare := filepath.Join(tmp, "bare.git")
	git := func(dir string, args ...string) error {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@b",
			"GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@b")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %w: %s", args, err, out)
		}
		return nil
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-qm", "files"}, {"clone", "-q", "--bare", src, bare}} {
		if err := git(src, args...); err != nil {
			cleanup()
			return "", nil, err
		}
	}
	return bare, cleanup, nil
}
