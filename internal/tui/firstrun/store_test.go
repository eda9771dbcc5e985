package firstrun

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/etalab-ia/albert-code/internal/config"
)

func TestSaveNewFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cfg := filepath.Join(dir, "home", ".env"), filepath.Join(dir, "xdg", "albert-code", "config.toml")
	if err := Save(env, cfg, Choice{KeyEnv: "ALBERT_API_KEY", Key: " sk-123 ", Model: "qwen"}); err != nil {
		t.Fatal(err)
	}
	assertFile(t, env, "ALBERT_API_KEY='sk-123'\n")
	assertFile(t, cfg, "model = \"qwen\"\n")
	if st, _ := os.Stat(env); st.Mode().Perm() != 0o600 {
		t.Errorf(".env mode %v, want 0600: it holds a secret", st.Mode().Perm())
	}
	// The configuration reads the key back exactly as written.
	s, err := config.LoadSecrets(filepath.Dir(env), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	if v, _, ok := s.Lookup("ALBERT_API_KEY"); !ok || v != "sk-123" {
		t.Errorf("config reads %q, %v", v, ok)
	}
}

func TestSaveKeepsOtherLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cfg := filepath.Join(dir, ".env"), filepath.Join(dir, "config.toml")
	writeFile(t, env, "# mine\nOPENAI_API_KEY=abc\nexport ALBERT_API_KEY=old\n")
	writeFile(t, cfg, "# settings\nmodel = \"old\"\nagent = \"plan\"\n\n[bash]\nmodel = \"not top level\"\n")
	if err := Save(env, cfg, Choice{KeyEnv: "ALBERT_API_KEY", Key: "new", Model: "qwen"}); err != nil {
		t.Fatal(err)
	}
	assertFile(t, env, "# mine\nOPENAI_API_KEY=abc\nALBERT_API_KEY='new'\n")
	assertFile(t, cfg, "# settings\nmodel = \"qwen\"\nagent = \"plan\"\n\n[bash]\nmodel = \"not top level\"\n")
}

func TestSaveAddsModelBeforeTables(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	writeFile(t, cfg, "[bash]\ntimeout = \"10s\"\n")
	if err := Save("", cfg, Choice{Model: "local"}); err != nil {
		t.Fatal(err)
	}
	assertFile(t, cfg, "model = \"local\"\n[bash]\ntimeout = \"10s\"\n")
}

func TestSaveRejectsBadKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, k := range []string{"", "  ", "a\nb", "it's"} {
		if err := Save(filepath.Join(dir, ".env"), filepath.Join(dir, "c.toml"), Choice{KeyEnv: "K", Key: k}); err == nil {
			t.Errorf("key %q accepted", k)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".env")); err == nil {
		t.Error("a rejected key created .env")
	}
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func assertFile(t *testing.T, p, want string) {
	t.Helper()
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s:\n%s\nwant:\n%s", filepath.Base(p), got, want)
	}
}
