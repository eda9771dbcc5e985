package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/faketelegram"
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
