package builtin

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/sensitive"
)

// FuzzResolve checks the workspace path resolution on any path a model may send,
// against a tree with links in, out, in chains, dangling and in a loop: it never
// panics, and a target judged inside the workspace really is, as the kernel sees it.
func FuzzResolve(f *testing.F) {
	base, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	for _, d := range []string{"ws/src/deep", "ws/.git", "out", "home/.ssh"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			f.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"ws/out": "../out", "ws/abs-out": filepath.Join(base, "out"), "ws/home": filepath.Join(base, "home"),
		"ws/in": "src/deep", "ws/src/up": "../..", "ws/src/deep/back": "../../.git", "ws/chain": "in/back",
		"ws/dangling": "../nowhere/file", "ws/loop": "loop", "ws/self": ".", "ws/root": "/",
	} {
		if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
			f.Fatal(err)
		}
	}
	env := Env{WorkDir: ws}
	f.Fuzz(func(t *testing.T, p string) {
		tg, err := env.locate(p)
		if err != nil || !tg.inside {
			return
		}
		if !sensitive.Within(ws, tg.real) {
			t.Fatalf("locate(%q) = %s, judged inside %s", p, tg.real, ws)
		}
		// The part of the target that exists has no link left in it: the kernel
		// resolves it to itself.
		existing := tg.real
		for {
			if _, err := os.Lstat(existing); err == nil {
				break
			}
			existing = filepath.Dir(existing)
		}
		if got, err := filepath.EvalSymlinks(existing); err != nil || got != existing {
			t.Fatalf("locate(%q) = %s, whose existing part %s really is %s (%v)", p, tg.real, existing, got, err)
		}
		// And os.Root, rooted at the workspace, reaches it without escaping.
		root, err := os.OpenRoot(ws)
		if err != nil {
			t.Fatal(err)
		}
		defer root.Close()
		rel, _ := filepath.Rel(ws, existing)
		if _, err := root.Lstat(rel); err != nil && strings.Contains(err.Error(), "escapes") && !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("locate(%q) = %s, which os.Root says escapes: %v", p, tg.real, err)
		}
	})
}
