package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSandboxFromGlobalConfig(t *testing.T) {
	home, wd := t.TempDir(), t.TempDir()
	global := filepath.Join(home, ".config", "albert-code", "config.toml")
	os.MkdirAll(filepath.Dir(global), 0o755)
	os.WriteFile(global, []byte("[sandbox]\nnetwork = \"off\"\nwritable = [\"/opt/cache\"]\nenv_passthrough = [\"GITHUB_TOKEN\"]\n"), 0o644)
	c, err := Load(Options{WorkDir: wd, LookupEnv: lookupIn(map[string]string{"HOME": home})})
	if err != nil {
		t.Fatal(err)
	}
	if c.Sandbox.Network != "off" || len(c.Sandbox.Writable) != 1 || c.Sandbox.EnvPassthrough[0] != "GITHUB_TOKEN" || c.Sandbox.Mode != "" {
		t.Fatalf("sandbox = %+v", c.Sandbox)
	}
}

func TestSandboxRefusedInProjectFile(t *testing.T) {
	home, wd := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(wd, ".albert-code.toml"), []byte("[sandbox]\nmode = \"off\"\n"), 0o644)
	_, err := Load(Options{WorkDir: wd, LookupEnv: lookupIn(map[string]string{"HOME": home})})
	if err == nil || !strings.Contains(err.Error(), "not read from a project file") || !strings.Contains(err.Error(), ".albert-code.toml") {
		t.Fatalf("a project [sandbox] table was not refused: %v", err)
	}
	if strings.Contains(err.Error(), "did you mean") || !strings.Contains(err.Error(), "; move it to your global config") {
		t.Errorf("the advice reads as a typo suggestion: %v", err)
	}
}

func TestSandboxOffFromEnvironment(t *testing.T) {
	home, wd := t.TempDir(), t.TempDir()
	c, err := Load(Options{WorkDir: wd, LookupEnv: lookupIn(map[string]string{"HOME": home, EnvSandbox: "off"})})
	if err != nil {
		t.Fatal(err)
	}
	if c.Sandbox.Mode != "off" {
		t.Fatalf("mode = %q", c.Sandbox.Mode)
	}
	_, err = Load(Options{WorkDir: wd, LookupEnv: lookupIn(map[string]string{"HOME": home, EnvSandbox: "sometimes"})})
	if err == nil || !strings.Contains(err.Error(), "sometimes") {
		t.Fatalf("a bad mode was not refused: %v", err)
	}
}

func lookupIn(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}
