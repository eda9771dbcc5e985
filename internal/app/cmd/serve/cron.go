package serve

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"

	croncmd "github.com/etalab-ia/albert-code/internal/app/cmd/cron"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// newServeCron builds the scheduler of `serve` when the cron mode is on and the
// API's is not (the API wins, as in the original), or returns nil. Jobs run on
// the serve layer's backend through its runner, and take the same workspace
// locks as the other modes. A non-nil notifier (the bot of this process) sends
// the notifications; otherwise cron builds its own sender when jobs name a chat.
func newServeCron(c serveconfig.Config, home string, b backend.Backend, rn *runner.Runner, root *workspace.Root, locks *workspace.Locks, notifier cron.Notifier, claims cron.TickClaimer, logger *slog.Logger) (*cron.Scheduler, error) {
	if !c.Cron.Enabled {
		return nil, nil
	}
	if c.API.Enabled {
		logger.Warn("cron mode ignored: the API mode wins, as in the original; run the scheduler in a second albert-code serve")
		return nil, nil
	}
	if c.Cron.File == "" {
		return nil, cmdutil.UsageError("%s: the cron mode needs its job file: set %s=jobs.yml", c.Source("CRON_MODE"), c.Source("CRON_MODE_FILE"))
	}
	f, err := croncmd.LoadFile(c.Cron.File, time.Now())
	if err != nil {
		return nil, err
	}
	if err := checkServeModels(b, cronModelUses(f)); err != nil {
		return nil, err
	}
	history := cronHistoryDir(c, home)
	if notifier == nil {
		if notifier, err = newCronNotifier(c, f.Jobs, logger); err != nil {
			return nil, err
		}
	} else {
		logger.Info("cron: notifications go through the Telegram bot of this process")
	}
	sched, err := cron.New(cron.Options{
		Jobs: f.Jobs, File: f.Path, Root: root, Locks: locks, HistoryDir: history, Logger: logger,
		Agent: cron.AgentFunc(func(ctx context.Context, req backend.Request) (backend.Result, error) {
			return rn.Run(ctx, b, req, nil)
		}),
		Notifier: notifier, Claims: claims,
	})
	if err != nil {
		return nil, cmdutil.UsageError("%v", err)
	}
	logger.Info("cron: jobs loaded", "file", c.Cron.File, "jobs", len(f.Jobs), "enabled", len(f.Enabled()), "history", history)
	return sched, nil
}

// cronHistoryDir is where cron keeps its runs and the messages it sent, which
// the bot reads to answer replies to notifications.
func cronHistoryDir(c serveconfig.Config, home string) string {
	if c.Cron.HistoryDir != "" {
		return c.Cron.HistoryDir
	}
	return filepath.Join(home, "cron")
}
