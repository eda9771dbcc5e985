package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadCustomPrefersTheFirstFolder(t *testing.T) {
	t.Parallel()
	project, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(project, "review.md"), "You review code. {{sandbox}}")
	writeFile(t, filepath.Join(home, "review.md"), "home review")
	writeFile(t, filepath.Join(home, "terse.md"), "Answer in one line.")
	text, path, err := LoadCustom("review", []string{project, home})
	if err != nil || text != "You review code. {{sandbox}}" || path != filepath.Join(project, "review.md") {
		t.Fatalf("review: %q from %q, err %v", text, path, err)
	}
	if text, _, err := LoadCustom("terse", []string{project, home}); err != nil || text != "Answer in one line." {
		t.Fatalf("terse: %q, err %v", text, err)
	}
	for _, id := range BuiltinIDs {
		if text, path, err := LoadCustom(id, []string{project, home}); text != "" || path != "" || err != nil {
			t.Errorf("built-in id %q: %q %q %v", id, text, path, err)
		}
	}
}

func TestLoadCustomMissingNamesTheAvailableOnes(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	writeFile(t, filepath.Join(home, "terse.md"), "x")
	writeFile(t, filepath.Join(home, "explore.md"), "x")
	writeFile(t, filepath.Join(home, "notes.txt"), "x")
	_, _, err := LoadCustom("reviw", []string{home})
	if err == nil {
		t.Fatal("a missing prompt loaded")
	}
	for _, want := range []string{`"reviw"`, "reviw.md", home, "available prompts: explore, terse", `"" for the built-in`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "notes") {
		t.Errorf("error lists a file that is no prompt: %v", err)
	}
	if _, _, err := LoadCustom("x", []string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "available prompts: none") {
		t.Errorf("empty folders: %v", err)
	}
}

func TestLoadCustomRefusesPathsHugeAndEmptyFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "big.md"), strings.Repeat("a", maxCustomPrompt+1))
	writeFile(t, filepath.Join(dir, "blank.md"), " \n")
	for id, want := range map[string]string{"../etc/passwd": "not a path", ".hidden": "not a path", "big": "KiB a prompt file may hold", "blank": "is empty"} {
		if _, _, err := LoadCustom(id, []string{dir}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", id, err, want)
		}
	}
}

func TestBuildWithACustomBase(t *testing.T) {
	t.Parallel()
	got, _ := Build(Input{WorkDir: "/w", Base: "You only review.", Sandbox: SandboxOn, ProjectContext: "\n# Project context\nTop-level entries (1 of 1): go.mod\n"})
	if !strings.HasPrefix(got, "You only review.") || strings.Contains(got, strings.TrimSpace(base)[:40]) {
		t.Errorf("the custom base does not replace the built-in one:\n%s", got)
	}
	if !strings.Contains(got, "OS sandbox") {
		t.Errorf("a custom base without {{sandbox}} hides the sandbox from the model:\n%s", got)
	}
	if !strings.Contains(got, "# Project context\nTop-level entries (1 of 1): go.mod") {
		t.Errorf("project context missing:\n%s", got)
	}
	withPlaceholder, _ := Build(Input{WorkDir: "/w", Base: "Review. {{sandbox}}", Sandbox: SandboxOn})
	if strings.Count(withPlaceholder, "OS sandbox") != 1 {
		t.Errorf("sandbox told %d times:\n%s", strings.Count(withPlaceholder, "OS sandbox"), withPlaceholder)
	}
	builtin, _ := Build(Input{WorkDir: "/w", Sandbox: SandboxOn})
	if strings.Count(builtin, "OS sandbox") != 1 {
		t.Errorf("built-in prompt tells the sandbox %d times", strings.Count(builtin, "OS sandbox"))
	}
}
