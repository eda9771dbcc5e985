package config

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestNotificationsAndUpdateCheckDefaults(t *testing.T) {
	s := newSandbox(t)
	c := s.load(t, Overrides{})
	want := Notifications{Enabled: false, Method: "auto", Sequence: "auto", After: 30 * time.Second}
	if c.Notifications != want {
		t.Errorf("notifications = %+v, want %+v (off by default)", c.Notifications, want)
	}
	if !c.Update.Enabled || c.Update.Feed != "https://api.github.com/repos/etalab-ia/albert-code/releases/latest" {
		t.Errorf("update = %+v, want on with the project's GitHub feed", c.Update)
	}
}

func TestNotificationsFromTheGlobalFile(t *testing.T) {
	s := newSandbox(t)
	path := write(t, s.globalFile(), `update_check = false
update_feed = "https://mirror.example.org/albert-code/latest"

[notifications]
enabled = true
method = "notify-send"
sequence = "osc9"
after = "45s"
`)
	c := s.load(t, Overrides{})
	want := Notifications{Enabled: true, Method: "notify-send", Sequence: "osc9", After: 45 * time.Second}
	if c.Notifications != want {
		t.Errorf("notifications = %+v, want %+v", c.Notifications, want)
	}
	if c.Update.Enabled || c.Update.Feed != "https://mirror.example.org/albert-code/latest" {
		t.Errorf("update = %+v, want off with the mirror", c.Update)
	}
	if got := source(t, c, "notifications.after"); got != path+":8" {
		t.Errorf("source of notifications.after = %s, want %s:8", got, path)
	}
	var b bytes.Buffer
	if err := Show(&b, c); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"update_check = false", "[notifications]", `method = "notify-send"`, `after = "45s"`} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("config show lacks %q:\n%s", line, b.String())
		}
	}
}

func TestNotificationsRejectBadValues(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"[notifications]\nmethod = \"notify_send\"\n", `invalid notifications.method "notify_send": want one of auto, terminal, notify-send`},
		{"[notifications]\nsequence = \"osc99\"\n", `invalid notifications.sequence "osc99"`},
		{"[notifications]\nafter = \"30\"\n", `invalid duration "30"`},
		{"[notifications]\nenabled = \"yes\"\n", "notifications.enabled"},
		{"update_feed = \"api.github.com/x\"\n", `invalid update_feed "api.github.com/x"`},
	} {
		s := newSandbox(t)
		path := write(t, s.globalFile(), tc.file)
		_, err := Load(Options{WorkDir: s.work})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: err = %v, want %q naming %s", tc.file, err, tc.want, path)
		}
	}
}

// The original's enable_update_checks = false keeps ours off; its
// enable_notifications (on in every file it wrote) does not turn ours on.
func TestOriginalUpdateChecksKey(t *testing.T) {
	s := newSandbox(t)
	path := write(t, OriginalConfigFile(s.appHome), "enable_update_checks = false\nenable_notifications = true\n")
	c := s.load(t, Overrides{})
	if c.Update.Enabled {
		t.Error("enable_update_checks = false in the original's config left the check on")
	}
	if c.Notifications.Enabled {
		t.Error("the original's enable_notifications turned notifications on")
	}
	if got := source(t, c, "update_check"); got != path+":1" {
		t.Errorf("source = %s, want %s:1", got, path)
	}
}

// A repository cannot redirect the update check: the feed's answer becomes a
// notice with a link, and each request tells the feed's owner who opened it.
func TestUpdateFeedRefusedInProjectFile(t *testing.T) {
	s := newSandbox(t)
	path := write(t, filepath.Join(s.work, ".albert-code.toml"), "update_feed = \"https://attacker.example/latest\"\n")
	_, err := Load(Options{WorkDir: s.work})
	if err == nil || !strings.Contains(err.Error(), "update_feed is not read from a project file") || !strings.Contains(err.Error(), path) {
		t.Fatalf("a project update_feed was not refused: %v", err)
	}
}

// A repository cannot let its own MCP server use the user's model unasked.
func TestSamplingAllowRefusedInProjectFile(t *testing.T) {
	s := newSandbox(t)
	path := write(t, filepath.Join(s.work, ".albert-code.toml"), "[mcp_servers.x]\ncommand = \"x\"\nsampling = \"allow\"\n")
	_, err := Load(Options{WorkDir: s.work})
	if err == nil || !strings.Contains(err.Error(), `sampling = "allow" is not read from a project file`) || !strings.Contains(err.Error(), path) {
		t.Fatalf("a project sampling = \"allow\" was not refused: %v", err)
	}
	write(t, path, "[mcp_servers.x]\ncommand = \"x\"\nsampling = \"deny\"\n")
	if _, err := Load(Options{WorkDir: s.work}); err != nil {
		t.Fatalf("a project may still deny sampling: %v", err)
	}
}
