package serve

import (
	"fmt"
	"log/slog"
	"regexp"

	"github.com/go-telegram/bot"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	"github.com/etalab-ia/albert-code/internal/serve/telegram/tgsend"
)

// botTokenShape is @BotFather's token: the bot's id, a colon, the secret.
var botTokenShape = regexp.MustCompile(`^[0-9]+:[A-Za-z0-9_-]+$`)

// newCronNotifier returns what sends the scheduler's notifications to
// Telegram, with or without the Telegram mode: nil when no enabled job names
// a chat, or when no bot token is set (then with a warning, as the outcome is
// only kept in the history folder).
func newCronNotifier(c serveconfig.Config, jobs []*cron.Job, logger *slog.Logger) (cron.Notifier, error) {
	var named []string
	for _, j := range jobs {
		if j.Enabled && j.TelegramChatID != 0 {
			named = append(named, j.Name)
		}
	}
	if len(named) == 0 {
		return nil, nil
	}
	tokenVar := c.Source("TELEGRAM_MODE_TOKEN")
	if c.Telegram.Token == "" {
		logger.Warn(fmt.Sprintf("cron: jobs name a telegram_chat_id but no bot token is set: set %s to send their outcome; meanwhile it is only kept in the history folder", tokenVar),
			"jobs", named)
		return nil, nil
	}
	if !botTokenShape.MatchString(c.Telegram.Token) {
		return nil, cmdutil.UsageError("%s: the value is not a bot token (want digits, a colon, then letters, digits, - or _, as @BotFather gives)", tokenVar)
	}
	apiURL := c.Telegram.APIURL
	if apiURL == "" {
		apiURL = serveconfig.DefaultTelegramAPIURL
	}
	// No getMe at start: the scheduler must not depend on Telegram being
	// reachable; a failed notification is recorded beside its run.
	b, err := bot.New(c.Telegram.Token, bot.WithServerURL(apiURL), bot.WithSkipGetMe())
	if err != nil {
		return nil, fmt.Errorf("cron notifications: %w", err)
	}
	logger.Info("cron: notifications go to Telegram", "api", apiURL, "jobs", named)
	return tgsend.New(b, tgsend.Options{Logger: logger}), nil
}
