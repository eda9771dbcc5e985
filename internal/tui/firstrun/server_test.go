package firstrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/config"
)

// A server typed on the setup screen becomes the active model's provider, read back
// by the configuration; running setup again replaces it and keeps the rest.
func TestSaveServerIsReadBackByTheConfiguration(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := filepath.Join(dir, "home", ".albert-code")
	env, cfg := filepath.Join(home, ".env"), filepath.Join(dir, "xdg", "albert-code", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("[tools.bash]\npermission = \"ask\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SaveServer(env, cfg, Server{URL: "http://127.0.0.1:9/v1", Model: "first-model"}); err != nil {
		t.Fatal(err)
	}
	if err := SaveServer(env, cfg, Server{URL: "https://llm.example.org/v1", Model: "my-model", Key: "sk-9"}); err != nil {
		t.Fatal(err)
	}
	lookup := func(k string) (string, bool) {
		v, ok := map[string]string{"XDG_CONFIG_HOME": filepath.Join(dir, "xdg"), "ALBERT_CODE_HOME": home, "HOME": filepath.Join(dir, "home")}[k]
		return v, ok
	}
	c, err := config.Load(config.Options{WorkDir: dir, LookupEnv: lookup})
	if err != nil {
		b, _ := os.ReadFile(cfg)
		t.Fatalf("%v\n%s", err, b)
	}
	m, err := c.ActiveModel()
	if err != nil || m.Name != "my-model" || m.Provider != ServerProvider {
		t.Fatalf("active model %+v, %v", m, err)
	}
	p, err := c.Provider(ServerProvider)
	if err != nil || p.BaseURL != "https://llm.example.org/v1" || p.APIKeyEnv != ServerKeyEnv {
		t.Fatalf("provider %+v, %v", p, err)
	}
	b, _ := os.ReadFile(cfg)
	if strings.Count(string(b), "[[providers]]") != 1 || strings.Contains(string(b), "first-model") || !strings.Contains(string(b), "[tools.bash]") {
		t.Fatalf("config file after two setups:\n%s", b)
	}
	assertFile(t, env, "CUSTOM_API_KEY='sk-9'\n")
}

func TestServerURLMustBeHTTP(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"", "localhost:11434", "ftp://x/v1", "http://"} {
		if err := CheckServerURL(bad); err == nil || !strings.Contains(err.Error(), "http://localhost:11434/v1") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if err := CheckServerURL("http://localhost:11434/v1"); err != nil {
		t.Error(err)
	}
}
