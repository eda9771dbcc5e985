package app

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/serve/adapter"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/telegram"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// newServeTelegram builds the Telegram bot of `serve` when its mode is on and
// the API's is not (the API wins, as in the original), or returns nil. Runs go
// through the serve layer's backend and runner and take the same workspace
// locks as the other modes; replies to cron notifications are looked up in
// the cron history folder, whether cron runs in this process or another.
func newServeTelegram(c serveconfig.Config, home string, backend adapter.Backend, root *workspace.Root, locks *workspace.Locks, logger *slog.Logger) (*telegram.Bot, error) {
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
		return nil, usageError("%s: the bot's YAML file %s does not exist: write one with allowed_chats: [<chat id>] (see docs/serve-telegram.md), or point %s at it",
			c.Source("TELEGRAM_MODE"), path, c.Source("TELEGRAM_MODE_CONFIG"))
	}
	if err != nil {
		return nil, usageError("%v", err)
	}
	if err := checkServeModels(backend, telegramModelUses(path, settings)); err != nil {
		return nil, err
	}
	overridesPath := c.Telegram.Overrides
	if overridesPath == "" {
		overridesPath = filepath.Join(home, "telegram_overrides.json")
	}
	overrides, err := telegram.LoadOverrides(overridesPath)
	if err != nil {
		return nil, usageError("%s: %v", c.Source("TELEGRAM_MODE_OVERRIDES"), err)
	}
	history := cronHistoryDir(c, home)
	rn := runner.New(runnerOptions(c))
	models, efforts := c.AvailableModels, c.AvailableEfforts
	if a, ok := backend.(adapter.Adapter); ok {
		if len(models) == 0 {
			models = adapter.Models(a)
		}
		if len(efforts) == 0 {
			efforts = adapter.ThinkingLevels(a)
		}
	} else if m, ok := backend.(adapter.Modeler); ok && len(models) == 0 {
		models = m.Models()
	}
	bot, err := telegram.New(telegram.Options{
		Token: c.Telegram.Token, APIURL: c.Telegram.APIURL,
		Settings: settings, SettingsPath: path, Overrides: overrides,
		Agent: agentFunc(func(ctx context.Context, req adapter.Request, emit func(adapter.Event)) (adapter.Result, error) {
			return rn.Run(ctx, backend, req, emit)
		}),
		AgentName: backend.Name(), Root: root, Locks: locks,
		Models: models, Efforts: efforts, CronHistoryDir: history, Logger: logger,
	})
	if err != nil {
		return nil, &exitError{code: ExitError, err: err}
	}
	logger.Info("telegram: bot configured", "config", path, "overrides", overridesPath, "api", c.Telegram.APIURL,
		"allow_all", settings.AllowAll, "chats", len(settings.AllowedChats)+len(settings.Chats))
	return bot, nil
}

// agentFunc is a function that is a telegram.Agent.
type agentFunc func(ctx context.Context, req adapter.Request, emit func(adapter.Event)) (adapter.Result, error)

func (f agentFunc) Run(ctx context.Context, req adapter.Request, emit func(adapter.Event)) (adapter.Result, error) {
	return f(ctx, req, emit)
}
