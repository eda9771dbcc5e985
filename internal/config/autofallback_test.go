package config

import (
	"os"
	"strings"
	"testing"
)

// /fallback's write: the key goes after the global file's top-level keys, or
// replaces its line, and the file keeps everything else; the reload then sees the new value.
func TestSaveAutoFallbackWritesTheGlobalFile(t *testing.T) {
	s := newSandbox(t)
	c := s.load(t, Overrides{})
	path, err := c.SaveAutoFallback(false)
	if err != nil || path != s.globalFile() {
		t.Fatalf("SaveAutoFallback on no file = %q, %v", path, err)
	}
	if c = s.load(t, Overrides{}); !c.RateLimits.NoAutoFallback {
		t.Fatal("the fallback is still on after saving false")
	}
	write(t, s.globalFile(), "# mine\nmodel = \"qwen\"\n\n[rate_limits]\ntier = \"prod\"\n")
	c = s.load(t, Overrides{})
	if _, err := c.SaveAutoFallback(false); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SaveAutoFallback(true); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(s.globalFile())
	want := "# mine\nmodel = \"qwen\"\nauto_fallback_enabled = true\n\n[rate_limits]\ntier = \"prod\"\n"
	if string(data) != want {
		t.Fatalf("file = %q, want %q", data, want)
	}
	if c = s.load(t, Overrides{}); c.RateLimits.NoAutoFallback || c.RateLimits.Tier != "prod" || c.ModelName != "qwen" {
		t.Fatalf("after saving true: %+v, model %s", c.RateLimits, c.ModelName)
	}
}

// A project file that sets the key wins over the global one: saving there would
// change nothing, so it is refused with the file to edit.
func TestSaveAutoFallbackRefusesWhenAnotherFileWins(t *testing.T) {
	s := newSandbox(t)
	proj := write(t, s.projectFile(".albert-code.toml"), "auto_fallback_enabled = false\n")
	c := s.load(t, Overrides{})
	if _, err := c.SaveAutoFallback(true); err == nil || !strings.Contains(err.Error(), proj) {
		t.Fatalf("err = %v, want a refusal naming %s", err, proj)
	}
}
