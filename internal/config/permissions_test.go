package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestPermissionsFromGlobalConfig(t *testing.T) {
	s := newSandbox(t)
	write(t, s.globalFile(), "[permissions]\nallow_control = [\".git/hooks/**\"]\nallow_secret = [\"~/.ssh/config\"]\n")
	c := s.load(t, Overrides{})
	want := Permissions{AllowControl: []string{".git/hooks/**"}, AllowSecret: []string{"~/.ssh/config"}}
	if !reflect.DeepEqual(c.Permissions, want) || len(c.Ignored) != 0 {
		t.Fatalf("permissions = %+v, ignored = %v", c.Permissions, c.Ignored)
	}
}

func TestPermissionsInProjectFileAreIgnored(t *testing.T) {
	s := newSandbox(t)
	write(t, s.globalFile(), "[permissions]\nallow_control = [\".git/hooks/**\"]\n")
	project := write(t, s.projectFile(".albert-code.toml"), "[permissions]\nallow_control = [\".albert-code.toml\", \".git/config\"]\nallow_secret = [\"~/.ssh\"]\n")
	c := s.load(t, Overrides{})
	if !reflect.DeepEqual(c.Permissions, Permissions{AllowControl: []string{".git/hooks/**"}}) {
		t.Fatalf("a project file changed [permissions]: %+v", c.Permissions)
	}
	if len(c.Ignored) != 1 || !strings.Contains(c.Ignored[0], project) || !strings.Contains(c.Ignored[0], "global config only") {
		t.Fatalf("ignored = %v; want one note naming %s", c.Ignored, project)
	}
}

func TestPermissionsRejectBadEntries(t *testing.T) {
	s := newSandbox(t)
	write(t, s.globalFile(), "[permissions]\nallow_secret = [\".ssh\"]\n")
	if _, err := Load(Options{WorkDir: s.work}); err == nil || !strings.Contains(err.Error(), `".ssh" is not an absolute path`) {
		t.Fatalf("a relative allow_secret was accepted: %v", err)
	}
	write(t, s.globalFile(), "[permissions]\nallow_control = [\"[\"]\n")
	if _, err := Load(Options{WorkDir: s.work}); err == nil || !strings.Contains(err.Error(), "not a valid glob") {
		t.Fatalf("a bad allow_control glob was accepted: %v", err)
	}
}
