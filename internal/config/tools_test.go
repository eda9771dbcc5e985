package config

import (
	"slices"
	"strings"
	"testing"
)

func TestBashAllowAndDenyAreCommandPrefixes(t *testing.T) {
	s := newSandbox(t)
	write(t, s.globalFile(), `[tools.bash]
allow = ["go test", "["]
deny = ["git push"]
`)
	c := s.load(t, Overrides{})
	bash := c.Tool("bash")
	if !slices.Equal(bash.Allow, []string{"go test", "["}) || !slices.Equal(bash.Deny, []string{"git push"}) {
		t.Fatalf("tools.bash = %+v", bash)
	}

	// "[" is a command for bash but a broken glob for a file tool.
	write(t, s.globalFile(), "[tools.edit]\nallow = [\"[\"]\n")
	if _, err := Load(Options{WorkDir: s.work}); err == nil || !strings.Contains(err.Error(), "bad path glob") {
		t.Fatalf("edit allow [ = %v, want a bad glob error", err)
	}
	write(t, s.globalFile(), "[tools.bash]\ndeny = [\"  \"]\n")
	if _, err := Load(Options{WorkDir: s.work}); err == nil || !strings.Contains(err.Error(), "tools.bash.deny") {
		t.Fatalf("empty bash prefix = %v, want an error naming tools.bash.deny", err)
	}
}
