package config

import (
	"strings"
	"testing"
)

func TestAgentLoopKeys(t *testing.T) {
	s := newSandbox(t)
	c := s.load(t, Overrides{})
	if c.AgentLoop != (AgentLoop{AutoContinue: 3, ProjectContext: true}) {
		t.Fatalf("defaults = %+v, want the original's 3 continues, project context on, built-in prompt", c.AgentLoop)
	}
	write(t, s.globalFile(), "auto_continue = 0\nproject_context = false\nsystem_prompt_id = \"review\"\n")
	c = s.load(t, Overrides{})
	if c.AgentLoop != (AgentLoop{SystemPromptID: "review"}) {
		t.Fatalf("from the file: %+v", c.AgentLoop)
	}
	var b strings.Builder
	if err := Show(&b, c); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"auto_continue = 0  # from " + s.globalFile() + ":1",
		"project_context = false  # from " + s.globalFile() + ":2",
		`system_prompt_id = "review"  # from ` + s.globalFile() + ":3",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("config show lacks %q:\n%s", want, b.String())
		}
	}
}

func TestAgentLoopBadValues(t *testing.T) {
	for content, want := range map[string]string{
		"auto_continue = -1\n":                 "want 0 (off) to 20",
		"auto_continue = 500\n":                "want 0 (off) to 20",
		"system_prompt_id = \"../../etc/x\"\n": "name a file of a prompts/ folder",
		"system_prompt_id = \".hidden\"\n":     "name a file of a prompts/ folder",
		"system_prompt_id = \"a/b\"\n":         "name a file of a prompts/ folder",
	} {
		s := newSandbox(t)
		write(t, s.globalFile(), content)
		_, err := Load(Options{WorkDir: s.work})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), s.globalFile()) {
			t.Errorf("%q: err = %v, want one naming the file and %q", content, err, want)
		}
	}
}
