package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// /proxy-setup in the UI saves into <home>/.env and lists what it holds.
func TestProxySetupCommandSavesInDotenv(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 120, 40, nil)
	l.ready()
	l.typeLine("/proxy-setup HTTPS_PROXY=http://proxy.example:3128")
	if !l.shows("Saved HTTPS_PROXY") {
		t.Fatalf("/proxy-setup:\n%s", l.screen())
	}
	env := filepath.Join(l.vars["ALBERT_CODE_HOME"], ".env")
	if data, err := os.ReadFile(env); err != nil || !strings.Contains(string(data), "HTTPS_PROXY='http://proxy.example:3128'") {
		t.Fatalf("%s = %q (%v)", env, data, err)
	}
}
