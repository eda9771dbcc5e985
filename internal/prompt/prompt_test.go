package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBuildIncludesProjectDocOnlyWhenTrusted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("Always run make lint."), 0o644); err != nil {
		t.Fatal(err)
	}
	in := Input{WorkDir: dir, Model: "m1", Profile: "plan", ProfileAddition: "Plan first.", Now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)}
	untrusted, used := Build(in)
	if strings.Contains(untrusted, "make lint") || used != "" {
		t.Fatal("untrusted folder's AGENTS.md reached the prompt")
	}
	in.Trusted = true
	trusted, used := Build(in)
	for _, want := range []string{"make lint", dir, "2026-11-30", "m1", "Plan first."} {
		if !strings.Contains(trusted, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if used != filepath.Join(dir, "AGENTS.md") {
		t.Errorf("used = %q", used)
	}
}

func TestProjectDocIsCapped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(strings.Repeat("é", maxProjectDoc)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, doc := projectDoc(dir)
	if len(doc) > maxProjectDoc+100 || !strings.HasSuffix(doc, "[... truncated ...]") || strings.ContainsRune(doc, '\uFFFD') {
		t.Fatalf("doc of %d bytes, tail %q", len(doc), doc[len(doc)-30:])
	}
}

func TestPromptSaysHowCommandsAreConfined(t *testing.T) {
	for sb, want := range map[string]string{SandboxOn: "OS sandbox", SandboxOff: "not sandboxed", "": "not sandboxed", SandboxMissing: "every command asks"} {
		got, _ := Build(Input{WorkDir: t.TempDir(), Sandbox: sb})
		if !strings.Contains(got, want) || strings.Contains(got, "{{sandbox}}") {
			t.Errorf("Sandbox %q: the prompt does not say %q:\n%s", sb, want, got)
		}
	}
}
