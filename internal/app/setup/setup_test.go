package setup

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
	"github.com/etalab-ia/albert-code/internal/tui/dialog"
)

// The screen offers every configured provider with its models, the active one
// first chosen, and saving writes the key to the home's .env and the model to the
// global file of the Factory's environment.
func TestOffersTheProvidersAndSavesTheAnswer(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	e, err := f.EnvHere()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := FromEnv(e, f.LookupEnv)
	albert := slices.IndexFunc(s.Providers, func(p dialog.ProviderOption) bool { return p.Name == s.Current })
	if s.Current == "" || albert < 0 || len(s.Providers[albert].Models) == 0 {
		t.Fatalf("providers %+v, current %q", s.Providers, s.Current)
	}
	p := s.Providers[albert]
	if err := s.Save(p, p.Models[0], "sk-test-key"); err != nil {
		t.Fatal(err)
	}
	home, _ := f.HomeDir()
	if env, err := os.ReadFile(filepath.Join(home, ".env")); err != nil || !strings.Contains(string(env), p.KeyEnv+"='sk-test-key'") {
		t.Fatalf(".env: %q %v", env, err)
	}
	xdg, _ := f.LookupEnv("XDG_CONFIG_HOME")
	if cfg, err := os.ReadFile(filepath.Join(xdg, "albert-code", "config.toml")); err != nil || !strings.Contains(string(cfg), p.Models[0]) {
		t.Fatalf("global config: %q %v", cfg, err)
	}
}
