package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitCmd runs git as the user would, outside any sandbox, with only the
// repository's own configuration.
func gitCmd(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// bareRepo makes a bare repository with one commit outside the workspace, to clone
// from with a file:// URL (no network).
func bareRepo(t *testing.T) string {
	t.Helper()
	src, bare := t.TempDir(), filepath.Join(t.TempDir(), "up.git")
	os.WriteFile(filepath.Join(src, "README"), []byte("hello\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "README"}, {"commit", "-qm", "one"},
		{"clone", "-q", "--bare", src, bare}} {
		if out, err := gitCmd(t, src, args...); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return bare
}

// TestNestedCloneKept: git clone and git init by a command keep their .git (it can
// run nothing), the user's git works in them, and from the next command on their
// config is read-only as an existing nested repository's.
func TestNestedCloneKept(t *testing.T) {
	needLandlock(t)
	bare := bareRepo(t)
	for _, b := range []Backend{BackendLandlock, BackendBubblewrap} {
		t.Run(string(b), func(t *testing.T) {
			ws := t.TempDir()
			s := New(Config{Mode: WorkspaceWrite, WorkDir: ws, Backend: b})
			defer s.Close()
			script := "export GIT_CONFIG_GLOBAL=/dev/null; git clone -q file://" + bare + " vendor/x && git init -q newproject && echo ok"
			out, removed := runSandboxed(t, s, ws, script)
			if len(removed) != 0 || !strings.Contains(out, "ok") {
				t.Fatalf("removed %v (output %s)", removed, out)
			}
			if out, err := gitCmd(t, filepath.Join(ws, "vendor/x"), "status", "--short", "--branch"); err != nil || !strings.Contains(out, "origin/") {
				t.Fatalf("git status in the clone: %v %s", err, out)
			}
			if out, err := gitCmd(t, filepath.Join(ws, "newproject"), "status"); err != nil {
				t.Fatalf("git status in the new repository: %v %s", err, out)
			}
			if out, _ := runSandboxed(t, s, ws, "git -C vendor/x config core.fsmonitor evil && echo armed"); strings.Contains(out, "armed") {
				t.Fatalf("a later command armed the kept clone: %s", out)
			}
			if b, _ := os.ReadFile(filepath.Join(ws, "vendor/x/.git/config")); strings.Contains(string(b), "evil") {
				t.Fatalf("the kept clone's config changed: %s", b)
			}
		})
	}
}

// TestNestedGitArmedRemoved: a nested .git that would let the user's git run
// something is removed, and the report says why.
func TestNestedGitArmedRemoved(t *testing.T) {
	needLandlock(t)
	outside := t.TempDir()
	init := "export GIT_CONFIG_GLOBAL=/dev/null; git init -q r && "
	cases := []struct{ name, script, why string }{
		{"fsmonitor", init + "git -C r config core.fsmonitor 'touch /tmp/p'", "core.fsmonitor"},
		{"hookspath", init + "git -C r config core.hooksPath ../h", "core.hookspath"},
		{"hook", init + "printf '#!/bin/sh\\ntouch /tmp/p\\n' > r/.git/hooks/post-checkout", "holds post-checkout"},
		{"include", init + "git -C r config include.path ../../evil", "include.path"},
		{"alias", init + "git -C r config alias.st '!touch /tmp/p'", "alias.st"},
		{"diff external", init + "git -C r config diff.external /tmp/p", "diff.external"},
		{"textconv", init + "git -C r config diff.x.textconv /tmp/p", "diff.x.textconv"},
		{"config.worktree", init + "printf '[core]\\n\\tpager = evil\\n' > r/.git/config.worktree", "core.pager"},
		{"commondir", init + "echo " + outside + " > r/.git/commondir", "commondir"},
		{"alternates", init + "echo " + outside + " > r/.git/objects/info/alternates", "outside the workspace"},
		{"linked config", init + "rm r/.git/config && ln -s ../../notes r/.git/config", "config is a link"},
		{"hard linked config", init + "ln r/.git/config notes2", "another hard link"},
		{"submodule folder", init + "mkdir -p r/.git/modules/m && echo ref > r/.git/modules/m/HEAD && " +
			"printf '[core]\\n\\tfsmonitor = evil\\n' > r/.git/modules/m/config", "core.fsmonitor"},
		{"gitdir outside", "mkdir r && echo 'gitdir: " + outside + "' > r/.git", "points to " + outside},
		{"worktree outside", init + "git -C r config core.worktree " + outside, "core.worktree outside"},
		{"unparsable", "mkdir -p r/.git && printf '[core\\n' > r/.git/config", "cannot be vouched for"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := t.TempDir()
			s := New(Config{Mode: WorkspaceWrite, WorkDir: ws})
			defer s.Close()
			out, removed := runSandboxed(t, s, ws, c.script)
			if len(removed) != 1 || !strings.HasPrefix(removed[0], filepath.Join(ws, "r/.git")+" (") ||
				!strings.Contains(strings.ToLower(removed[0]), strings.ToLower(c.why)) {
				t.Fatalf("removed %v, want r/.git with a reason naming %q (output %s)", removed, c.why, out)
			}
			if _, err := os.Lstat(filepath.Join(ws, "r/.git")); err == nil {
				t.Fatal("the armed .git is still there")
			}
		})
	}
}

// TestNestedGitFileIntoOwnModulesKept: a .git file naming a submodule's folder in
// the workspace's own .git (what git submodule writes) stays; the folder it names
// is read-only to commands.
func TestNestedGitFileIntoOwnModulesKept(t *testing.T) {
	needLandlock(t)
	ws := t.TempDir()
	if out, err := gitCmd(t, ws, "init", "-q"); err != nil {
		t.Fatal(err, out)
	}
	os.MkdirAll(filepath.Join(ws, ".git/modules/lib"), 0o755)
	s := New(Config{Mode: WorkspaceWrite, WorkDir: ws})
	defer s.Close()
	out, removed := runSandboxed(t, s, ws, "mkdir lib && echo 'gitdir: ../.git/modules/lib' > lib/.git && "+
		"mkdir other && echo 'gitdir: ../.git/modules/../hooks' > other/.git")
	if len(removed) != 1 || !strings.HasPrefix(removed[0], filepath.Join(ws, "other/.git")) {
		t.Fatalf("removed %v, want other/.git alone (output %s)", removed, out)
	}
	if _, err := os.Lstat(filepath.Join(ws, "lib/.git")); err != nil {
		t.Fatal("the submodule's .git file was removed")
	}
}

// TestNestedGitMadeAgainIsChecked: a nested repository the session knew, removed
// between two commands and made again armed by a command, is checked anew.
func TestNestedGitMadeAgainIsChecked(t *testing.T) {
	needLandlock(t)
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "r/.git"), 0o755)
	s := New(Config{Mode: WorkspaceWrite, WorkDir: ws})
	defer s.Close()
	if _, removed := runSandboxed(t, s, ws, "true"); len(removed) != 0 {
		t.Fatalf("the user's repository was removed: %v", removed)
	}
	os.RemoveAll(filepath.Join(ws, "r/.git"))
	out, removed := runSandboxed(t, s, ws, "mkdir -p r/.git/objects/info && echo /elsewhere > r/.git/objects/info/alternates")
	if len(removed) != 1 || !strings.Contains(removed[0], "outside the workspace") {
		t.Fatalf("removed %v, want r/.git for its alternates (output %s)", removed, out)
	}
}

// TestNestedRecursiveCloneKept: a clone with its submodules keeps the clone's .git
// (its modules/ vetted too) and the submodule's .git file, which points into it.
func TestNestedRecursiveCloneKept(t *testing.T) {
	needLandlock(t)
	lib, app := t.TempDir(), t.TempDir()
	for _, step := range []struct {
		dir  string
		args []string
	}{
		{lib, []string{"init", "-q"}}, {lib, []string{"commit", "-q", "--allow-empty", "-m", "lib"}},
		{app, []string{"init", "-q"}}, {app, []string{"-c", "protocol.file.allow=always", "submodule", "add", "-q", "file://" + lib, "lib"}},
		{app, []string{"commit", "-qm", "app"}},
	} {
		if out, err := gitCmd(t, step.dir, step.args...); err != nil {
			t.Fatalf("git %v: %v %s", step.args, err, out)
		}
	}
	ws := t.TempDir()
	s := New(Config{Mode: WorkspaceWrite, WorkDir: ws})
	defer s.Close()
	out, removed := runSandboxed(t, s, ws, "export GIT_CONFIG_GLOBAL=/dev/null; git -c protocol.file.allow=always clone -q --recurse-submodules file://"+app+" vendor/app && echo ok")
	if len(removed) != 0 || !strings.Contains(out, "ok") {
		t.Fatalf("removed %v (output %s)", removed, out)
	}
	if out, err := gitCmd(t, filepath.Join(ws, "vendor/app/lib"), "status"); err != nil {
		t.Fatalf("git status in the submodule: %v %s", err, out)
	}
	// The same submodule's folder armed: both go, each with its reason.
	out, removed = runSandboxed(t, s, ws, "export GIT_CONFIG_GLOBAL=/dev/null; git -c protocol.file.allow=always clone -q --recurse-submodules file://"+app+" vendor/b"+
		" && git -C vendor/b/lib config core.fsmonitor evil")
	if len(removed) != 2 || !strings.Contains(removed[0], "core.fsmonitor") || !strings.Contains(removed[1], "points into") || !strings.Contains(removed[1], "core.fsmonitor") {
		t.Fatalf("removed %v, want vendor/b/.git and vendor/b/lib/.git for core.fsmonitor (output %s)", removed, out)
	}
}
