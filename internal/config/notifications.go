package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
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
	if u.UpdateCheck != nil {
		c.Update.Enabled = *u.UpdateCheck
		c.sources["update_check"] = o("update_check")
	}
	if u.UpdateFeed != nil {
		// A repository must not choose where the UI asks for releases: the feed's
		// answer becomes a notice with a link, and the request tells its owner
		// who opened the folder.
		if fromProjectFile(o, "update_feed") {
			return fieldError(o, "update_feed", "update_feed",
				"update_feed is not read from a project file, which the repository's authors control",
				"move it to your global config ("+filepath.Join("~", ".config", appDirName, "config.toml")+")")
		}
		f := *u.UpdateFeed
		if !strings.HasPrefix(f, "https://") && !strings.HasPrefix(f, "http://") {
			return fieldError(o, "update_feed", "update_feed", fmt.Sprintf("invalid update_feed %q", f),
				"write the release feed's URL, starting with https://")
		}
		c.Update.Feed = f
		c.sources["update_feed"] = o("update_feed")
	}
	if n == nil {
		return nil
	}
	rec := func(key string) { c.sources["notifications."+key] = o("notifications." + key) }
	if n.Enabled != nil {
		c.Notifications.Enabled = *n.Enabled
		rec("enabled")
	}
	for _, f := range []struct {
		dst     *string
		src     *string
		key     string
		choices []string
	}{{&c.Notifications.Method, n.Method, "method", notify.Methods}, {&c.Notifications.Sequence, n.Sequence, "sequence", notify.Sequences}} {
		if f.src == nil {
			continue
		}
		if !slices.Contains(f.choices, *f.src) {
			return fieldError(o, "notifications."+f.key, "notifications."+f.key,
				fmt.Sprintf("invalid notifications.%s %q: want one of %s", f.key, *f.src, strings.Join(f.choices, ", ")),
				tomlfile.Suggest(*f.src, f.choices))
		}
		*f.dst = *f.src
		rec(f.key)
	}
	if n.After != nil {
		d, err := parseDuration(*n.After)
		if err != nil {
			return fieldError(o, "notifications.after", "notifications.after", err.Error(), "")
		}
		c.Notifications.After = d
		rec("after")
	}
	return nil
}
