package config

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestModelLookup(t *testing.T) {
	s := newSandbox(t)
	write(t, s.globalFile(), "[[models]]\nname = \"qwen\"\naliases = [\"Coder\"]\n")
	c := s.load(t, Overrides{})
	tests := []struct{ query, want string }{
		{"qwen", "qwen"},
		{"Qwen/Qwen3.6-27B", "qwen"},
		{"Coder", "qwen"},
		{"coder", "qwen"},
		{"MISTRAL-MEDIUM", "mistral-medium"},
		{"deepseek-ai/deepseek-v4-flash", "deepseek-flash"},
	}
	for _, tt := range tests {
		m, err := c.Model(tt.query)
		if err != nil || m.Name != tt.want {
			t.Errorf("Model(%q) = %q, %v; want %q", tt.query, m.Name, err, tt.want)
		}
	}
	_, err := c.Model("gpt-9")
	if err == nil || !strings.Contains(err.Error(), "deepseek-flash, devstral-small, local, mistral-medium, qwen") {
		t.Errorf("unknown model error should list the known names, got %v", err)
	}
}

func TestModelLookupPrefersExactCase(t *testing.T) {
	s := newSandbox(t)
	write(t, s.globalFile(), "[[models]]\nname = \"big\"\nprovider = \"ollama\"\n[[models]]\nname = \"BIG\"\nprovider = \"ollama\"\n")
	c := s.load(t, Overrides{})
	if m, _ := c.Model("BIG"); m.Name != "BIG" {
		t.Errorf("Model(BIG) = %q: an exact match must beat an earlier case-insensitive one", m.Name)
	}
}

func TestSecretsEnvironmentWinsOverDotenv(t *testing.T) {
	s := newSandbox(t)
	write(t, filepath.Join(s.appHome, ".env"), `# keys
export ALBERT_API_KEY="from-dotenv"
OPENAI_API_KEY='single # not a comment'
MISTRAL_API_KEY=plain # a comment
ANTHROPIC_API_KEY="a\"b"
`)
	t.Setenv("ALBERT_API_KEY", "from-env")
	c := s.load(t, Overrides{})
	tests := []struct{ provider, want string }{
		{"albert", "from-env"},
		{"openai", "single # not a comment"},
		{"mistral", "plain"},
		{"anthropic", `a"b`},
		{"ollama", ""},
	}
	for _, tt := range tests {
		got, err := c.APIKey(tt.provider)
		if err != nil || got != tt.want {
			t.Errorf("APIKey(%s) = %q, %v; want %q", tt.provider, got, err, tt.want)
		}
	}
}

// A malformed .env (it may be the original's) is a one-line notice naming the file
// and line; the run goes on without it.
func TestMalformedDotenvNamesFileAndLine(t *testing.T) {
	s := newSandbox(t)
	env := write(t, filepath.Join(s.appHome, ".env"), "ALBERT_API_KEY=1\nthis is not a pair\n")
	c, err := Load(Options{WorkDir: s.work})
	if err != nil {
		t.Fatalf("Load failed on a malformed .env: %v", err)
	}
	if len(c.Notices) != 1 || !strings.Contains(c.Notices[0], env+":2") || strings.Contains(c.Notices[0], "\n") {
		t.Errorf("notices = %q, want one line naming %s:2", c.Notices, env)
	}
	if _, err := c.APIKey("albert"); err == nil {
		t.Error("a key from the unreadable .env was used")
	}
}

func TestMissingKeyNamesVariableAndDotenv(t *testing.T) {
	s := newSandbox(t)
	c := s.load(t, Overrides{})
	_, err := c.APIKey("albert")
	if !errors.Is(err, ErrMissingAPIKey) {
		t.Fatalf("err = %v, want ErrMissingAPIKey", err)
	}
	for _, want := range []string{"ALBERT_API_KEY", filepath.Join(s.appHome, ".env")} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}
