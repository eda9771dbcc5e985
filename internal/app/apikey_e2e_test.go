package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// --api-key saves the active provider's key in <home>/.env (0600) and uses it;
// the next run finds it there; a key that cannot be saved is a usage error.
func TestAPIKeyFlagSavesAndUsesTheKey(t *testing.T) {
	t.Parallel()
	h := newHarness(t, text("first"), text("second"))
	h.env = slices.DeleteFunc(h.env, func(v string) bool { return strings.HasPrefix(v, "ALBERT_API_KEY=") })

	if r := h.run("--api-key", "sk-from-flag", "-p", "hello"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if got := h.srv.Requests()[0].Header.Get("Authorization"); got != "Bearer sk-from-flag" {
		t.Errorf("Authorization = %q", got)
	}
	envFile := filepath.Join(h.home, ".env")
	data, err := os.ReadFile(envFile)
	if err != nil || !strings.Contains(string(data), "ALBERT_API_KEY='sk-from-flag'") {
		t.Fatalf(".env = %q, %v", data, err)
	}
	if info, _ := os.Stat(envFile); info.Mode().Perm() != 0o600 {
		t.Errorf(".env mode %v, want 0600", info.Mode().Perm())
	}

	if r := h.run("-p", "again"); r.code != 0 {
		t.Fatalf("the next run, key from .env: exit %d: %s", r.code, r.stderr)
	}
	if got := h.srv.Requests()[1].Header.Get("Authorization"); got != "Bearer sk-from-flag" {
		t.Errorf("the next run's Authorization = %q", got)
	}

	r := h.run("--api-key", "bad'key", "-p", "x")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--api-key") {
		t.Errorf("a key with a quote: exit %d, stderr %q", r.code, r.stderr)
	}
}
