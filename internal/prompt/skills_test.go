package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSkillsAreListedWithoutTheirInstructions(t *testing.T) {
	t.Parallel()
	out, _ := Build(Input{WorkDir: t.TempDir(), Skills: []Skill{
		{Name: "code-review", Description: "Review a change\nfor bugs."},
		{Name: "commit", Description: "Write a commit message."},
	}})
	for _, want := range []string{"# Skills", "load it with the skill tool", "- code-review: Review a change for bugs.\n", "- commit: Write a commit message.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("prompt lacks %q:\n%s", want, out)
		}
	}
	if none, _ := Build(Input{WorkDir: t.TempDir()}); strings.Contains(none, "# Skills") {
		t.Error("a prompt without skills has a skills section")
	}
}

func TestProjectDocIsFoundAtTheRepositoryRoot(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	root := filepath.Join(outside, "repo")
	sub := filepath.Join(root, "cmd", "tool")
	for _, d := range []string{filepath.Join(root, ".git"), sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Above the repository: never read.
	if err := os.WriteFile(filepath.Join(outside, "AGENTS.md"), []byte("Outside rules."), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, used := Build(Input{WorkDir: sub, Trusted: true}); used != "" {
		t.Errorf("read %s from above the repository", used)
	}
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("Run make check."), 0o644); err != nil {
		t.Fatal(err)
	}
	out, used := Build(Input{WorkDir: sub, Trusted: true})
	if used != filepath.Join(root, "AGENTS.md") || !strings.Contains(out, "Run make check.") {
		t.Errorf("used %q; prompt:\n%s", used, out)
	}
	// A nearer file wins.
	if err := os.WriteFile(filepath.Join(sub, "AGENTS.md"), []byte("Tool rules."), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, used := Build(Input{WorkDir: sub, Trusted: true}); used != filepath.Join(sub, "AGENTS.md") || strings.Contains(out, "make check") {
		t.Errorf("used %q", used)
	}
}
