package config

import (
	"os"
	"path/filepath"
	"testing"
)

// sandbox points every location Load reads at fresh temporary directories and clears
// the variables that would leak the developer's own settings into a test.
type sandbox struct {
	home, xdg, appHome, work string
}

func newSandbox(t *testing.T) sandbox {
	t.Helper()
	root := t.TempDir()
	s := sandbox{
		home:    filepath.Join(root, "home"),
		xdg:     filepath.Join(root, "xdg"),
		appHome: filepath.Join(root, "app"),
		work:    filepath.Join(root, "work", "repo", "sub"),
	}
	for _, d := range []string{s.home, s.xdg, s.appHome, s.work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", s.home)
	t.Setenv("XDG_CONFIG_HOME", s.xdg)
	t.Setenv(EnvHome, s.appHome)
	for _, v := range append(EnvVars()[1:], "ALBERT_API_KEY", "OPENAI_API_KEY", "MISTRAL_API_KEY", "ANTHROPIC_API_KEY") {
		t.Setenv(v, "")
	}
	return s
}

func (s sandbox) globalFile() string { return filepath.Join(s.xdg, "albert-code", "config.toml") }

// projectFile is in the repo root, two levels above the working directory, so every
// test also checks the upward search.
func (s sandbox) projectFile(name string) string {
	return filepath.Join(filepath.Dir(s.work), name)
}

func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func (s sandbox) load(t *testing.T, ov Overrides) *Config {
	t.Helper()
	c, err := Load(Options{WorkDir: s.work, Overrides: ov})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c
}

func source(t *testing.T, c *Config, key string) string {
	t.Helper()
	src, ok := c.Source(key)
	if !ok {
		t.Fatalf("no source recorded for %s", key)
	}
	return src.String()
}
