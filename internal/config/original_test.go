package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The config.toml the original writes on first run, with the user's own additions: a
// model of their own and a bash permission.
const originalConfig = `active_model = "albert-large"
auto_fallback_enabled = true
vim_keybindings = false

[session_logging]
save_dir = "~/.albert-code/logs/session"

[[providers]]
name = "albert"
api_base = "https://albert.api.etalab.gouv.fr/v1"
api_key_env_var = "ALBERT_API_KEY"
api_style = "openai"
backend = "generic"

[[models]]
name = "Qwen/Qwen3-Coder-30B-A3B-Instruct"
provider = "albert"
alias = "albert-code"
fallback_model = "albert-large"

[[models]]
name = "openai/gpt-oss-120b"
provider = "albert"
alias = "albert-large"

[[models]]
name = "my-org/fine-tuned"
provider = "albert"
alias = "mine"

[tools.bash]
permission = "always"
`

func TestOriginalGlobalConfigIsReadBelowOurs(t *testing.T) {
	s := newSandbox(t)
	path := write(t, filepath.Join(s.appHome, "config.toml"), originalConfig)
	c := s.load(t, Overrides{})
	if !slices.Contains(c.Files, path) || len(c.Notices) > 0 {
		t.Fatalf("files = %v, notices = %v", c.Files, c.Notices)
	}
	m, err := c.ActiveModel()
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "mistral-medium" {
		t.Errorf("active_model albert-large = %s, want the migration table's mistral-medium (the shipped Qwen entry dropped)", m.Name)
	}
	if mine, err := c.Model("mine"); err != nil || mine.WireName != "my-org/fine-tuned" {
		t.Errorf("the user's own model = %+v, %v", mine, err)
	}
	if got := c.Tool("bash").Permission; got != PermissionAlways {
		t.Errorf("tools.bash.permission = %q", got)
	}

	write(t, s.globalFile(), "model = \"qwen\"\n")
	if c := s.load(t, Overrides{}); c.ModelName != "qwen" {
		t.Errorf("our global file lost to the original's: model = %s", c.ModelName)
	}
}

func TestUnreadableOriginalConfigIsANotice(t *testing.T) {
	s := newSandbox(t)
	path := write(t, filepath.Join(s.appHome, "config.toml"), "active_model = [\n")
	c := s.load(t, Overrides{})
	if len(c.Notices) != 1 || !strings.Contains(c.Notices[0], path) || strings.Contains(c.Notices[0], "\n") {
		t.Errorf("notices = %q, want one line naming %s", c.Notices, path)
	}
	if c.ModelName != "mistral-medium" {
		t.Errorf("model = %s, want the defaults", c.ModelName)
	}
}

func TestOriginalModelNamesMapThroughTheTable(t *testing.T) {
	s := newSandbox(t)
	for from, to := range migratedModels {
		c := s.load(t, Overrides{Model: from})
		m, err := c.ActiveModel()
		if err != nil || m.Name != to {
			t.Errorf("--model %s = %+v, %v; want %s", from, m.Name, err, to)
		}
	}
	write(t, s.globalFile(), "[[models]]\nname = \"albert-code\"\nprovider = \"albert\"\nwire_name = \"x/y\"\n")
	if m, _ := s.load(t, Overrides{Model: "albert-code"}).ActiveModel(); m.WireName != "x/y" {
		t.Errorf("a configured albert-code = %+v, want it to win over the table", m)
	}
}

func TestOriginalAutoFallbackIsKept(t *testing.T) {
	s := newSandbox(t)
	write(t, filepath.Join(s.appHome, "config.toml"), "auto_fallback_enabled = false\n")
	c := s.load(t, Overrides{})
	if !c.RateLimits.NoAutoFallback || !strings.Contains(source(t, c, "auto_fallback_enabled"), "config.toml:1") {
		t.Errorf("auto_fallback_enabled = false in the original's config: NoAutoFallback = %v", c.RateLimits.NoAutoFallback)
	}
	write(t, s.projectFile(".vibe.toml"), "auto_fallback_enabled = true\n")
	if c := s.load(t, Overrides{}); c.RateLimits.NoAutoFallback {
		t.Error("a .vibe.toml's auto_fallback_enabled = true was not applied")
	}
}

// The global file wins over the original's, so /fallback may save there.
func TestSaveAutoFallbackOverTheOriginalsConfig(t *testing.T) {
	s := newSandbox(t)
	write(t, filepath.Join(s.appHome, "config.toml"), "auto_fallback_enabled = true\n")
	path, err := s.load(t, Overrides{}).SaveAutoFallback(false)
	if err != nil || path != s.globalFile() {
		t.Fatalf("SaveAutoFallback = %q, %v", path, err)
	}
	if c := s.load(t, Overrides{}); !c.RateLimits.NoAutoFallback {
		t.Error("the saved auto_fallback_enabled = false lost to the original's config")
	}
}
