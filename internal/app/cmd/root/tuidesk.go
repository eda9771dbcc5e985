package root

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/tui"
	"github.com/etalab-ia/albert-code/internal/update"
)

// deskFor builds the terminal UI's desktop notifications and its update check from
// the configuration. Only the terminal UI calls it: -p, acp and serve never check
// for updates nor notify. Notifications that cannot work are a warning, not a stop.
func deskFor(fac *cmdutil.Factory, c *config.Config) (*tui.Notify, func(context.Context) string) {
	n, err := tui.NotifyFromConfig(c.Notifications)
	if err != nil {
		fmt.Fprintf(fac.IO.ErrOut, "albert-code: warning: desktop notifications are off: %v\n", err)
		slog.Warn("desktop notifications are off", "err", err)
	}
	return n, updateNotice(fac, c)
}

// updateNotice returns the background check the UI runs at start, or nil when the
// check is off (update_check = false, ALBERT_CODE_NO_UPDATE_CHECK, CI).
func updateNotice(fac *cmdutil.Factory, c *config.Config) func(context.Context) string {
	if why := update.OffReason(fac.LookupEnv, c.Update.Enabled); why != "" {
		slog.Debug("update check off", "why", why)
		return nil
	}
	current := fac.Version
	checker := &update.Checker{
		Feed:      c.Update.Feed,
		Current:   current,
		CacheFile: filepath.Join(c.Home, update.CacheFileName),
		UserAgent: fac.UserAgent(),
	}
	return func(ctx context.Context) string {
		rel, ok := checker.Newer(ctx)
		if !ok {
			return ""
		}
		return update.Notice(rel, current)
	}
}
