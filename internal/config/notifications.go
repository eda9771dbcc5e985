package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/notify"
)

// Notifications is the [notifications] table: the terminal UI's desktop
// notifications when a long turn ends or a call waits for approval while the
// terminal has no focus. Off unless enabled.
type Notifications struct {
	Enabled bool
	// Method is "auto", "terminal" or "notify-send".
	Method string
	// Sequence is the terminal's escape sequence: "auto", "osc9" or "osc777".
	Sequence string
	// After is how long a turn must run before its end is announced.
	After time.Duration
}

// UpdateCheck holds the top-level update_check and update_feed keys: whether the
// terminal UI asks the release feed, once a day, for a newer version, and where.
type UpdateCheck struct {
	Enabled bool
	Feed    string
}

type notificationsLayer struct {
	Enabled  *bool   `toml:"enabled"`
	Method   *string `toml:"method"`
	Sequence *string `toml:"sequence"`
	After    *string `toml:"after"`
}

type updateLayer struct {
	UpdateCheck *bool   `toml:"update_check"`
	UpdateFeed  *string `toml:"update_feed"`
}

func (c *Config) applyNotifications(n *notificationsLayer, u *updateLayer, o origin) error {
	// A repository must not choose where the UI asks for releases: the feed's answer
	// becomes a notice with a link, and the request tells its owner who opened the folder.
	if u.UpdateFeed != nil && fromProjectFile(o, "update_feed") {
		return fieldError(o, "update_feed", "update_feed",
			"update_feed is not read from a project file, which the repository's authors control",
			"move it to your global config ("+filepath.Join("~", ".config", appDirName, "config.toml")+")")
	}
	choice := func(name string, choices []string) func(string) (string, error) {
		return oneOf(choices, func(v string) string {
			return fmt.Sprintf("invalid notifications.%s %q: want one of %s", name, v, strings.Join(choices, ", "))
		})
	}
	nl := orZero(n)
	return c.runSteps(o,
		key("update_check", u.UpdateCheck, &c.Update.Enabled, keep),
		key("update_feed", u.UpdateFeed, &c.Update.Feed, func(f string) (string, error) {
			if !strings.HasPrefix(f, "https://") && !strings.HasPrefix(f, "http://") {
				return f, hinted{fmt.Sprintf("invalid update_feed %q", f), "write the release feed's URL, starting with https://"}
			}
			return f, nil
		}),
		key("notifications.enabled", nl.Enabled, &c.Notifications.Enabled, keep),
		key("notifications.method", nl.Method, &c.Notifications.Method, choice("method", notify.Methods)),
		key("notifications.sequence", nl.Sequence, &c.Notifications.Sequence, choice("sequence", notify.Sequences)),
		key("notifications.after", nl.After, &c.Notifications.After, parseDuration),
	)
}
