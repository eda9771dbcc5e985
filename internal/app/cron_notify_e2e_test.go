package app

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/faketelegram"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
)

// TestCronOnlyServeNotifiesTelegram runs serve with the scheduler alone (the
// Telegram mode off) and a bot token: the job's long answer reaches its chat
// on the fake Bot API whole, split into messages, and the run records their ids.
func TestCronOnlyServeNotifiesTelegram(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a line of the nightly digest\n", 300) + "END-OF-DIGEST"
	turns := make([]fakemodel.Turn, 20)
	for i := range turns {
		turns[i] = fakemodel.Turn{Text: []string{long}}
	}
	h := newHarness(t, turns...)
	tg := faketelegram.Start(t, "777:cron-e2e")
	if err := os.MkdirAll(filepath.Join(h.work, "root", "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := h.writeFile("cron.yml", `
telegram_chat_id: 4242
jobs:
  - {name: digest, schedule: "* * * * * *", instruction: "digest", workspace: proj, no_continue: true}
`)
	history := filepath.Join(h.home, "cron-history")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd, stderr, exited := startServe(ctx, t, h, "ALBERT_CODE_CRON_MODE=1", "ALBERT_CODE_CRON_MODE_FILE="+file,
		"ALBERT_CODE_CRON_MODE_HISTORY_DIR="+history, "ALBERT_CODE_TELEGRAM_MODE_TOKEN="+tg.Token(),
		"ALBERT_CODE_TELEGRAM_MODE_API_URL="+tg.URL())

	var run map[string]any
	for run == nil || run["telegram_message_ids"] == nil && run["notify_error"] == nil {
		select {
		case err := <-exited:
			t.Fatalf("serve exited: %v\n%s", err, stderr.String())
		case <-ctx.Done():
			t.Fatalf("no notified run recorded:\n%s", stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		run = firstCronRun(filepath.Join(history, "digest.jsonl"))
	}
	stopServe(t, cmd, exited, stderr, 60*time.Second)
	if run["notify_error"] != nil {
		t.Fatalf("notification failed: %v\n%s", run["notify_error"], stderr.String())
	}
	var recorded []int64
	for _, id := range run["telegram_message_ids"].([]any) {
		recorded = append(recorded, int64(id.(float64)))
	}
	sent := tg.Messages(4242)
	var first []int64
	var text strings.Builder
	for _, m := range sent[:min(len(recorded), len(sent))] {
		first = append(first, m.MessageID)
		text.WriteString(m.Plain)
	}
	if len(recorded) < 2 || !slices.Equal(recorded, first) {
		t.Fatalf("run records ids %v, the chat's first messages are %v", recorded, first)
	}
	got := text.String()
	if !strings.Contains(got[:min(20, len(got))], "[digest]") || !strings.HasSuffix(strings.TrimSpace(got), "END-OF-DIGEST") ||
		strings.Count(got, "nightly digest") != 300 {
		t.Errorf("notification text (%d lines of digest): %.80q ... %q", strings.Count(got, "nightly digest"), got, got[max(0, len(got)-40):])
	}
	if strings.Contains(stderr.String(), "sends no notifications") {
		t.Errorf("the old warning is still logged:\n%s", stderr.String())
	}
}

// Without a token, jobs that name a chat get a warning naming the variable;
// a malformed token is refused before the scheduler starts.
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
