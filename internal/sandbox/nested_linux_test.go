package sandbox

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// runSandboxed runs script through s in workspace-write, the way the bash tool
// does, and returns what the after-command check removed.
func runSandboxed(t *testing.T, s *Sandbox, ws, script string) (string, []string) {
	t.Helper()
	cmd := exec.Command("/bin/bash", "-c", script)
	cmd.Dir = ws
	release, err := s.Prepare(context.Background(), WorkspaceWrite, cmd)
	if err != nil {
		t.Fatal(err)
	}
	check := s.WatchControl(WorkspaceWrite)
	out, _ := cmd.CombinedOutput()
	release()
	return string(out), check()
}

// TestNestedControlFiles: a nested repository is entered by git as a submodule
// once the top index links it (the user's next git status runs its
// core.fsmonitor), and a subfolder's project file arms an agent started there. A
// command may not create them, nor change those that were there before it.
func TestNestedControlFiles(t *testing.T) {
	needLandlock(t)
	testNestedControlFiles(t)
}

// TestNestedControlFilesWithoutInotify: where inotify is out of watches, the check
// walks the workspace after each command, with the same outcome.
func TestNestedControlFilesWithoutInotify(t *testing.T) {
	needLandlock(t)
	watchDirs = func(string) (*dirWatcher, map[string]bool, error) { return nil, nil, errors.New("no watches left") }
	defer func() { watchDirs = newDirWatcher }()
	testNestedControlFiles(t)
}

// TestNestedControlAfterFolderMoves: a folder renamed in the workspace leaves
// inotify's paths stale, so the check walks; what the command made in it goes.
func TestNestedControlAfterFolderMoves(t *testing.T) {
	needLandlock(t)
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "a/b"), 0o755)
	s := New(Config{Mode: WorkspaceWrite, WorkDir: ws})
	defer s.Close()
	if out, removed := runSandboxed(t, s, ws, "mv a z && mkdir z/b/.git && echo '[core] fsmonitor = evil' > z/b/.git/config && echo ok"); len(removed) != 1 || !strings.HasPrefix(removed[0], filepath.Join(ws, "z/b/.git")+" (") {
		t.Fatalf("removed %v after a move, want z/b/.git (output %s)", removed, out)
	}
	if out, removed := runSandboxed(t, s, ws, "mkdir -p z/b/c/d/e && echo '{}' > z/b/c/d/e/.mcp.json"); len(removed) != 1 {
		t.Fatalf("removed %v in the moved folder's new subtree (output %s)", removed, out)
	}
}

// removedPaths drops the reason a removed .git is reported with.
func removedPaths(removed []string) []string {
	out := make([]string, len(removed))
	for i, r := range removed {
		out[i], _, _ = strings.Cut(r, " (")
	}
	return out
}

func testNestedControlFiles(t *testing.T) {
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "vendor/old/.git/hooks"), 0o755)
	os.WriteFile(filepath.Join(ws, "vendor/old/.git/config"), []byte("[core]\n"), 0o644)
	os.MkdirAll(filepath.Join(ws, "made-by-user"), 0o755)
	s := New(Config{Mode: WorkspaceWrite, WorkDir: ws})
	defer s.Close()

	out, removed := runSandboxed(t, s, ws, "mkdir -p sub/.git deep/er && echo '[core] fsmonitor = evil' > sub/.git/config"+
		" && echo 'gitdir: ../x' > deep/er/.git && echo '[tools.bash]' > deep/.albert-code.toml && echo '{}' > sub/.mcp.json"+
		" && echo ok > sub/file.txt")
	want := []string{filepath.Join(ws, "deep/.albert-code.toml"), filepath.Join(ws, "deep/er/.git"),
		filepath.Join(ws, "sub/.git"), filepath.Join(ws, "sub/.mcp.json")}
	removed = removedPaths(removed)
	slices.Sort(removed)
	if !slices.Equal(removed, want) {
		t.Fatalf("removed %v, want %v (output %s)", removed, want, out)
	}
	for _, p := range want {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "sub/file.txt")); string(b) != "ok\n" {
		t.Errorf("an ordinary file next to them was lost: %q", b)
	}

	for _, attack := range []string{
		"echo '[core] fsmonitor = evil' >> vendor/old/.git/config",
		"echo evil > vendor/old/.git/hooks/post-checkout",
		"mv vendor/old/.git vendor/old/.git-away",
	} {
		if out, _ := runSandboxed(t, s, ws, attack); out == "" {
			t.Errorf("%q wrote a nested repository's control files", attack)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "vendor/old/.git/config")); string(b) != "[core]\n" {
		t.Errorf("the nested repository's config changed: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(ws, "vendor/old/.git/hooks/post-checkout")); err == nil {
		t.Error("a hook was planted in the nested repository")
	}
	if _, err := os.Lstat(filepath.Join(ws, "vendor/old/.git-away")); err == nil {
		t.Error("the nested repository's .git was renamed away")
	}

	// One the user makes between two commands is theirs, and stays.
	time.Sleep(1100 * time.Millisecond) // change times are compared to the second
	os.MkdirAll(filepath.Join(ws, "made-by-user/.git"), 0o755)
	time.Sleep(1100 * time.Millisecond)
	if _, removed := runSandboxed(t, s, ws, "echo ok > other.txt"); len(removed) != 0 {
		t.Errorf("the user's own nested repository was removed: %v", removed)
	}
}

// TestHooksPathStaysReadOnly: a repository whose config names a hooks folder in the
// worktree (husky) keeps it read-only, as .git/hooks.
func TestHooksPathStaysReadOnly(t *testing.T) {
	needLandlock(t)
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, ".git"), 0o755)
	os.WriteFile(filepath.Join(ws, ".git/config"), []byte("[core]\n\thooksPath = .husky/_\n"), 0o644)
	os.MkdirAll(filepath.Join(ws, ".husky/_"), 0o755)
	os.WriteFile(filepath.Join(ws, ".husky/_/pre-commit"), []byte("#!/bin/sh\n"), 0o755)
	for _, b := range []Backend{BackendLandlock, BackendBubblewrap} {
		p := Policy{Mode: WorkspaceWrite, WorkDir: ws, TempDir: t.TempDir(), Backend: b}
		run := runIn
		if b == BackendBubblewrap {
			run = runBwrap
		}
		if out, err := run(t, p, ws, "echo evil >> .husky/_/pre-commit"); err == nil {
			t.Errorf("%s: the hooks folder was written: %s", b, out)
		}
		if out, err := run(t, p, ws, "echo ok > .husky/notes.txt"); err != nil {
			t.Errorf("%s: a file beside the hooks folder could not be written: %v %s", b, err, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".husky/_/pre-commit")); string(b) != "#!/bin/sh\n" {
		t.Fatalf("the hook changed: %q", b)
	}
}
