package sensitive

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHooksDir(t *testing.T) {
	t.Parallel()
	for config, want := range map[string]string{
		"[core]\n\thooksPath = .husky/_\n":                          ".husky/_",
		"[core]\n\tHooksPath = \"githooks\"\n":                      "githooks",
		"[remote \"o\"]\n\thooksPath = x\n[core]\n\tbare = false\n": "",
		"[core]\n\thooksPath = ../outside\n":                        "",
		"[core]\n\thooksPath = /etc/hooks\n":                        "",
		"[core]\n\thooksPath = ~/hooks\n":                           "",
		"[core]\n\t# hooksPath = commented\n":                       "",
	} {
		ws := t.TempDir()
		os.MkdirAll(filepath.Join(ws, ".git"), 0o755)
		os.WriteFile(filepath.Join(ws, ".git/config"), []byte(config), 0o644)
		got := HooksDir(ws)
		if want != "" {
			want = filepath.Join(ws, want)
		}
		if got != want {
			t.Errorf("HooksDir for %q = %q, want %q", config, got, want)
		}
	}
}

// TestHooksPathIsControl: husky's hooks, named by core.hooksPath, run on the next
// commit as .git/hooks would (second pass: the write tool changed them unasked).
func TestHooksPathIsControl(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, ".git"), 0o755)
	os.WriteFile(filepath.Join(ws, ".git/config"), []byte("[core]\n\thooksPath = .husky/_\n"), 0o644)
	if rule, ok := Control(ws, filepath.Join(ws, ".husky/_/pre-commit")); !ok || rule != RuleGitHooksPath {
		t.Errorf("Control(.husky/_/pre-commit) = %q, %v", rule, ok)
	}
	if _, ok := Control(ws, filepath.Join(ws, ".husky/README.md")); ok {
		t.Error("a file beside the hooks folder is control")
	}
	if ControlReason(RuleGitHooksPath) == RuleGitHooksPath {
		t.Error("the rule has no reason")
	}
}
