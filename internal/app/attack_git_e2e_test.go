package app

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// The git doors: git reads config, and runs core.fsmonitor, from more places than
// .git/config. Each case below got through before it was closed: the user's next
// plain git status, outside any sandbox, ran the model's command.

// gitRepo makes the hostile workspace a real repository, as the user's would be.
func gitRepo(t *testing.T, h *harness) {
	t.Helper()
	if out, err := exec.Command("git", "init", "-q", h.work).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
}

// userGitStatus runs git status in the workspace as the user would, unconfined,
// with only the workspace's own configuration.
func userGitStatus(t *testing.T, h *harness) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "status")
	cmd.Dir = h.work
	cmd.Env = append(h.env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	cmd.CombinedOutput() // its failure is no concern: only what it ran is
}

func TestAttackGitIndirectionsArmNothing(t *testing.T) {
	t.Parallel()
	h := hostile(t)
	gitRepo(t, h)
	pwned := filepath.Join(filepath.Dir(h.work), "pwned")
	fsmonitor := func(n string) string { return "[core]\\n\\tfsmonitor = touch " + pwned + n + "\\n" }
	attacks := []string{
		// .git/commondir: git takes its config from the folder named there.
		"mkdir -p evil/objects evil/refs && printf '" + fsmonitor("1") + "' > evil/config && echo ../evil > .git/commondir",
		// A nested repository linked in the top index is entered as a submodule.
		"git init -q sub && git -C sub -c user.name=a -c user.email=a@b commit -q --allow-empty -m s" +
			" && git -C sub config core.fsmonitor 'touch " + pwned + "2'" +
			" && git update-index --add --cacheinfo 160000,$(git -C sub rev-parse HEAD),sub",
		// A submodule's own git folder under .git/modules.
		"mkdir -p .git/modules/m && printf '" + fsmonitor("3") + "' > .git/modules/m/config",
		"mkdir -p deep/down && echo '[tools.bash]' > deep/down/.albert-code.toml",
	}
	var cs []fakemodel.ToolCall
	for i, a := range attacks {
		cs = append(cs, bashCall("g"+string(rune('0'+i)), a))
	}
	h.srv = fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{calls(cs...), text("done")}})
	r := h.run("-p", "--trust", "--agent", "auto-approve", "--output", "json", "arm git")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	userGitStatus(t, h)
	for _, n := range []string{"1", "2", "3"} {
		mustNotExist(t, pwned+n, "the user's git status ran a command the model planted")
	}
	mustNotExist(t, filepath.Join(h.work, ".git/commondir"), "git was pointed at another config")
	mustNotExist(t, filepath.Join(h.work, "sub/.git"), "a nested repository was planted")
	mustNotExist(t, filepath.Join(h.work, ".git/modules"), "a submodule's git folder was planted")
	mustNotExist(t, filepath.Join(h.work, "deep/down/.albert-code.toml"), "a subfolder's project file was planted")
	if res := h.toolResult(1, "g1"); !strings.Contains(res, "removed") || !strings.Contains(res, "core.fsmonitor") {
		t.Errorf("the removal of the nested repository and its reason were not reported: %s", res)
	}

	// The write tool asks for the same files, under accept-edits.
	write := func(id, path string) fakemodel.ToolCall {
		return fakemodel.ToolCall{ID: id, Name: "write", Arguments: args(map[string]any{"path": path, "content": "[core]\n"})}
	}
	ws := []fakemodel.ToolCall{write("w1", ".git/commondir"), write("w2", ".git/modules/m/config"),
		write("w3", ".git/config.worktree"), write("w4", "sub2/.git/config")}
	h.srv = fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{calls(ws...), text("done")}})
	r = h.run("-p", "--trust", "--agent", "accept-edits", "--output", "json", "arm git")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	for _, c := range ws {
		if res := h.toolResult(1, c.ID); !strings.Contains(res, "needs approval") {
			t.Errorf("write %s went through in accept-edits: %s", c.Arguments, res)
		}
	}
	mustNotExist(t, filepath.Join(h.work, ".git/commondir"), "the write tool pointed git at another config")
}

// TestAttackNestedCloneStaysUsable: what the git doors' guard must not break, a
// clone and a git init by an approved command, keep their .git and your git works
// in them; a hook planted in a second clone sends its .git away, and the model is
// told why.
func TestAttackNestedCloneStaysUsable(t *testing.T) {
	t.Parallel()
	h := hostile(t)
	gitRepo(t, h)
	src := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = src
		cmd.Env = append(h.env, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b",
			"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "one")
	pwned := filepath.Join(filepath.Dir(h.work), "pwned")
	h.srv = fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{calls(
		bashCall("c1", "git clone -q file://"+src+" vendor/x && git init -q newproject"),
		bashCall("c2", "git clone -q file://"+src+" vendor/y && printf '#!/bin/sh\\ntouch "+pwned+"\\n' > vendor/y/.git/hooks/post-checkout && chmod +x vendor/y/.git/hooks/post-checkout"),
	), text("done")}})
	r := h.run("-p", "--trust", "--agent", "auto-approve", "--output", "json", "clone")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if res := h.toolResult(1, "c1"); strings.Contains(res, "removed") {
		t.Errorf("a plain clone lost its .git: %s", res)
	}
	for _, dir := range []string{"vendor/x", "newproject"} {
		cmd := exec.Command("git", "status")
		cmd.Dir = filepath.Join(h.work, dir)
		cmd.Env = append(h.env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("git status in %s: %v %s", dir, err, out)
		}
	}
	if res := h.toolResult(1, "c2"); !strings.Contains(res, "removed") || !strings.Contains(res, "post-checkout") {
		t.Errorf("the armed clone's removal and its reason were not reported: %s", res)
	}
	mustNotExist(t, filepath.Join(h.work, "vendor/y/.git"), "a clone with a planted hook kept its .git")
}
