package serve

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/telegram"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// newServeTelegram builds the Telegram bot of `serve` when its mode is on and
// the API's is not (the API wins, as in the original), or returns nil. Runs go
// through the serve layer's backend and its one runner and take the same workspace
// locks as the other modes; replies to cron notifications are looked up in
// the cron history folder, whether cron runs in this process or another.
func newServeTelegram(c serveconfig.Config, home string, b backend.Backend, rn *runner.Runner, root *workspace.Root, locks *workspace.Locks, logger *slog.Logger) (*telegram.Bot, error) {
	if !c.Telegram.Enabled {
		return nil, nil
	}
	if c.API.Enabled {
		logger.Warn("telegram mode ignored: the API mode wins, as in the original; run the bot in a second albert-code serve")
		return nil, nil
	}
	path := c.Telegram.File
	if path == "" {
		path = filepath.Join(home, "telegram.yml")
	}
	settings, err := telegram.LoadSettings(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, cmdutil.UsageError("%s: the bot's YAML file %s does not exist: write one with allowed_chats: [<chat id>] (see docs/serve-telegram.md), or point %s at it",
			c.Source("TELEGRAM_MODE"), path, c.Source("TELEGRAM_MODE_CONFIG"))
	}
	if err != nil {
		return nil, cmdutil.UsageError("%v", err)
	}
	if err := checkServeModels(b, telegramModelUses(path, settings)); err != nil {
		return nil, err
	}
	overridesPath := c.Telegram.Overrides
	if overridesPath == "" {
		overridesPath = filepath.Join(home, "telegram_overrides.json")
	}
	overrides, err := telegram.LoadOverrides(overridesPath)
	if err != nil {
		return nil, cmdutil.UsageError("%s: %v", c.Source("TELEGRAM_MODE_OVERRIDES"), err)
	}
	history := cronHistoryDir(c, home)
	models, efforts := c.AvailableModels, c.AvailableEfforts
	if a, ok := b.(cli.Adapter); ok {
		if len(models) == 0 {
			models = cli.Models(a)
		}
		if len(efforts) == 0 {
			efforts = cli.ThinkingLevels(a)
		}
	} else if m, ok := b.(cli.Modeler); ok && len(models) == 0 {
		models = m.Models()
	}
	bot, err := telegram.New(telegram.Options{
		Token: c.Telegram.Token, APIURL: c.Telegram.APIURL,
		Settings: settings, SettingsPath: path, Overrides: overrides,
		Agent: agentFunc(func(ctx context.Context, req backend.Request, emit func(backend.Event)) (backend.Result, error) {
			return rn.Run(ctx, b, req, emit)
		}),
		AgentName: b.Name(), Root: root, Locks: locks,
		Models: models, Efforts: efforts, CronHistoryDir: history, Logger: logger,
	})
	if err != nil {
		return nil, cmdutil.Failed(err)
	}
	logger.Info("telegram: bot configured", "config", path, "overrides", overridesPath, "api", c.Telegram.APIURL,
		"allow_all", settings.AllowAll, "chats", len(settings.AllowedChats)+len(settings.Chats))
	return bot, nil
}

// agentFunc is a function that is a telegram.Agent.
type agentFunc func(ctx context.Context, req backend.Request, emit func(backend.Event)) (backend.Result, error)

func (f agentFunc) Run(ctx context.Context, req backend.Request, emit func(backend.Event)) (backend.Result, error) {
	return f(ctx, req, emit)
}
