package serve

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
)

func TestCronNotifierNeedsAValidToken(t *testing.T) {
	t.Parallel()
	jobs := []*cron.Job{{Name: "digest", Enabled: true, TelegramChatID: 5}, {Name: "quiet", Enabled: true}}
	parse := func(env map[string]string) serveconfig.Config {
		c, _, _ := serveconfig.Parse(serveconfig.Source{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
		return c
	}
	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	n, err := newCronNotifier(parse(map[string]string{}), jobs, logger)
	if n != nil || err != nil || !strings.Contains(log.String(), "ALBERT_CODE_TELEGRAM_MODE_TOKEN") || !strings.Contains(log.String(), "digest") {
		t.Errorf("no token: %v %v, log %s", n, err, log.String())
	}
	_, err = newCronNotifier(parse(map[string]string{"AICODEBOX_TELEGRAM_MODE_TOKEN": "not a token"}), jobs, logger)
	if err == nil || !strings.Contains(err.Error(), "AICODEBOX_TELEGRAM_MODE_TOKEN: the value is not a bot token") {
		t.Errorf("bad token: %v", err)
	}
	if n, err := newCronNotifier(parse(map[string]string{"ALBERT_CODE_TELEGRAM_MODE_TOKEN": "1:a"}), jobs[1:], logger); n != nil || err != nil {
		t.Errorf("no job names a chat: %v %v", n, err)
	}
	if n, err := newCronNotifier(parse(map[string]string{"ALBERT_CODE_TELEGRAM_MODE_TOKEN": "1:a"}), jobs, logger); n == nil || err != nil {
		t.Errorf("token and a chat: %v %v", n, err)
	}
}
