package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/faketelegram"
)

const e2eBotToken = "7000001:e2e-token"

// startBot starts `serve` with the Telegram mode against api, plus env.
func startBot(ctx context.Context, t *testing.T, h *harness, api *faketelegram.Server, yaml string, env ...string) (*lockedBufferProc, func()) {
	t.Helper()
	config := h.writeFile("telegram.yml", yaml)
	cmd, stderr, exited := startServe(ctx, t, h, append([]string{"ALBERT_CODE_TELEGRAM_MODE=1",
		"ALBERT_CODE_TELEGRAM_MODE_TOKEN=" + e2eBotToken, "ALBERT_CODE_TELEGRAM_MODE_API_URL=" + api.URL(),
		"ALBERT_CODE_TELEGRAM_MODE_CONFIG=" + config}, env...)...)
	p := &lockedBufferProc{stderr: stderr, exited: exited}
	return p, func() { stopServe(t, cmd, exited, stderr, 60*time.Second) }
}

type lockedBufferProc struct {
	stderr *lockedBuffer
	exited <-chan error
}

// waitSent waits for the bot's n-th message to chat, failing if serve exits.
func waitSent(t *testing.T, api *faketelegram.Server, p *lockedBufferProc, chat int64, n int) []faketelegram.Sent {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		if sent := api.Messages(chat); len(sent) >= n {
			return sent
		}
		select {
		case err := <-p.exited:
			t.Fatalf("serve exited: %v\n%s", err, p.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d messages to chat %d, want %d:\n%s", len(api.Messages(chat)), chat, n, p.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTelegramServeEndToEnd runs the real binary's bot with the native agent
// against the fake model and the fake Bot API: a message gets the model's
// answer, an unknown chat gets nothing, and SIGTERM stops the bot.
func TestTelegramServeEndToEnd(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakemodel.Turn{Text: []string{"Hello from", " **the bot**."}})
	api := faketelegram.Start(t, e2eBotToken)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	p, stop := startBot(ctx, t, h, api, "allowed_chats: [1001]\n")
	api.SendText(9999, 5, "let me in")
	api.SendText(1001, 5, "hello")
	sent := waitSent(t, api, p, 1001, 1)
	if sent[0].Plain != "Hello from the bot." || sent[0].ParseMode != "HTML" || !strings.Contains(sent[0].Text, "<b>the bot</b>") {
		t.Errorf("answer %+v", sent[0])
	}
	if len(api.Commands()) == 0 {
		t.Error("no command menu registered")
	}
	stop()
	if n := len(api.Messages(9999)); n != 0 {
		t.Errorf("an unknown chat got %d messages", n)
	}
	log := p.stderr.String()
	for _, w := range []string{"message from a chat or user not allowed, ignored", "chat=9999", "telegram: bot stopped"} {
		if !strings.Contains(log, w) {
			t.Errorf("log lacks %q:\n%s", w, log)
		}
	}
	if _, err := os.Stat(filepath.Join(h.work, "root", "chat_1001")); err != nil {
		t.Errorf("no chat workspace: %v", err)
	}
}

// TestTelegramAndCronInOneProcess: a cron job notifies the chat, the user
// replies to the notification, and the bot runs with the job's context.
func TestTelegramAndCronInOneProcess(t *testing.T) {
	t.Parallel()
	turns := make([]fakemodel.Turn, 40)
	for i := range turns {
		turns[i] = fakemodel.Turn{Text: []string{fmt.Sprintf("answer %d", i)}}
	}
	h := newHarness(t, turns...)
	api := faketelegram.Start(t, e2eBotToken)
	if err := os.MkdirAll(filepath.Join(h.work, "root", "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	jobs := h.writeFile("cron.yml", `
jobs:
  - name: report
    schedule: "* * * * * *"
    instruction: "write the report"
    workspace: proj
    no_continue: true
    telegram_chat_id: 1001
`)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	p, stop := startBot(ctx, t, h, api, "allowed_chats: [1001]\n", "ALBERT_CODE_CRON_MODE=1", "ALBERT_CODE_CRON_MODE_FILE="+jobs,
		"ALBERT_CODE_CRON_MODE_HISTORY_DIR="+filepath.Join(h.home, "cron"))
	notification := waitSent(t, api, p, 1001, 1)[0]
	if !strings.Contains(notification.Plain, "report") {
		t.Errorf("notification %+v", notification)
	}
	// The inbox is written once the notification is sent: wait for it.
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, _ := os.ReadFile(filepath.Join(h.home, "cron", "telegram_messages.json"))
		if strings.Contains(string(data), fmt.Sprintf(`"message_id": %d,`, notification.MessageID)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cron inbox does not hold message %d: %s\n%s", notification.MessageID, data, p.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	api.ReplyText(1001, 5, notification.MessageID, "what failed?")
	deadline = time.Now().Add(90 * time.Second)
	for !strings.Contains(p.stderr.String(), "kind=cron job=report") {
		if time.Now().After(deadline) {
			t.Fatalf("the reply was not taken as a reply to the cron job:\n%s", p.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	var found bool
	for !found && time.Now().Before(deadline) {
		for _, r := range h.srv.Requests() {
			if body := fmt.Sprint(r.JSON["messages"]); strings.Contains(body, `scheduled job "report"`) && strings.Contains(body, "what failed?") {
				found = true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !found {
		t.Errorf("no model request carried the cron context:\n%s", p.stderr.String())
	}
	stop()
	log := p.stderr.String()
	for _, w := range []string{"cron: scheduler stopped", "telegram: bot stopped", "cron: notifications go through the Telegram bot of this process"} {
		if !strings.Contains(log, w) {
			t.Errorf("log lacks %q:\n%s", w, log)
		}
	}
	if strings.Contains(log, "cron: notifications go to Telegram") {
		t.Errorf("cron built a second Bot API client beside the bot's:\n%s", log)
	}
}

// TestTelegramServeRefusesBadConfig: serve stops before polling, naming the
// file, key or variable at fault, with the usage exit code.
func TestTelegramServeRefusesBadConfig(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if err := os.MkdirAll(filepath.Join(h.work, "root"), 0o755); err != nil {
		t.Fatal(err)
	}
	open := h.writeFile("open.yml", "default: {model: x}\n")
	typo := h.writeFile("typo.yml", "allowed_chats: [1001]\nchats:\n  1001: {allowed_user: [5]}\n")
	base := []string{"ALBERT_CODE_TELEGRAM_MODE=1", "ALBERT_CODE_WORKSPACE=" + filepath.Join(h.work, "root"),
		"ALBERT_CODE_RUN_STORE=" + filepath.Join(h.home, "runs.db"), "ALBERT_CODE_TELEGRAM_MODE_API_URL=http://127.0.0.1:9"}
	for _, c := range []struct {
		env  []string
		want []string
	}{
		{nil, []string{"ALBERT_CODE_TELEGRAM_MODE_TOKEN: the telegram mode needs the bot's token"}},
		{[]string{"ALBERT_CODE_TELEGRAM_MODE_TOKEN=12:abc"}, []string{"telegram.yml does not exist", "allowed_chats"}},
		{[]string{"ALBERT_CODE_TELEGRAM_MODE_TOKEN=12:abc", "ALBERT_CODE_TELEGRAM_MODE_CONFIG=" + open}, []string{"open.yml: allowed_chats: no chat is allowed", "allow_all: true"}},
		{[]string{"ALBERT_CODE_TELEGRAM_MODE_TOKEN=12:abc", "ALBERT_CODE_TELEGRAM_MODE_CONFIG=" + typo}, []string{"typo.yml:3: chats.1001.allowed_user: unknown key"}},
	} {
		r := cronRun(t, h, append(append([]string{}, base...), c.env...), "serve")
		if r.code != ExitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", c.env, r.code, ExitUsage, r.stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%v: stderr lacks %q:\n%s", c.env, w, r.stderr)
			}
		}
	}
}
