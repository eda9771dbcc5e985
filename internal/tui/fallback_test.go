package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// /fallback in the UI writes auto_fallback_enabled to the global config file and
// reloads, so the reopened session has the fallback off; /fallback again turns it
// back on.
func TestFallbackCommandSavesAndReloads(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 120, 40, nil)
	l.ready()
	file := filepath.Join(l.vars["XDG_CONFIG_HOME"], "albert-code", "config.toml")
	l.typeLine("/fallback")
	if !l.shows("Automatic fallback off") {
		t.Fatalf("/fallback:\n%s", l.screen())
	}
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), "auto_fallback_enabled = false") {
		t.Fatalf("%s = %q (%v)", file, data, err)
	}
	l.until("the reloaded session with the fallback off", func() bool { return l.m.conv != nil && !l.m.AutoFallback() })
	l.typeLine("/fallback")
	l.until("the fallback back on", func() bool { return l.m.conv != nil && l.m.AutoFallback() })
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), "auto_fallback_enabled = true") {
		t.Fatalf("%s = %q after the second /fallback", file, data)
	}
}
