package telegram

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
)

// answering makes the fake agent answer text whatever the prompt.
func answering(text string) func(*Options) {
	return func(o *Options) {
		o.Agent.(*fakeAgent).run = func(context.Context, backend.Request) (backend.Result, error) {
			return backend.Result{Text: text, Stopped: "exited"}, nil
		}
	}
}

func TestSendFileTagsSendFilesFromThisChatOnly(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "allowed_chats: [1001, 1002]\n", answering(
		"Here is the chart:\n[SEND_FILE: out/chart.png]\n[SEND_FILE: ../chat_1002/secret.txt]\n[SEND_FILE: leak.txt]\n[SEND_FILE: empty.txt]\nDone."))
	ws, _ := f.root.Workspace("chat_1001", true)
	other, _ := f.root.Workspace("chat_1002", true)
	must(t, os.MkdirAll(filepath.Join(ws, "out"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, "out", "chart.png"), []byte("PNGDATA"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "empty.txt"), nil, 0o644))
	must(t, os.WriteFile(filepath.Join(other, "secret.txt"), []byte("theirs"), 0o644))
	must(t, os.Symlink(filepath.Join(other, "secret.txt"), filepath.Join(ws, "leak.txt")))
	f.api.SendText(chatA, alice, "draw it")
	f.waitTexts(chatA, 5)
	sent := f.api.Messages(chatA)
	if sent[0].Method != "sendPhoto" || string(sent[0].File) != "PNGDATA" {
		t.Errorf("first message %+v", sent[0])
	}
	contains(t, sent[1].Plain, "refused, outside this chat's workspace: ../chat_1002/secret.txt")
	contains(t, sent[2].Plain, "refused, outside this chat's workspace: leak.txt")
	contains(t, sent[3].Plain, "file is empty: empty.txt")
	if got := sent[4].Plain; got != "Here is the chart:\n\nDone." {
		t.Errorf("answer %q: the tags must be stripped", got)
	}
	for _, s := range sent {
		if strings.Contains(string(s.File), "theirs") {
			t.Error("another chat's file was sent")
		}
	}
}

func TestLongAnswerIsSplitWithinTelegramLimits(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("# Report\n\n")
	for i := range 400 {
		b.WriteString("Line **" + strings.Repeat("é", 5) + "** 🙂 number " + string(rune('a'+i%26)) + " with `code` and text.\n\n")
	}
	b.WriteString("```go\n" + strings.Repeat("fmt.Println(\"<tag> & more\")\n", 200) + "```\n")
	f := newFixture(t, allowA, answering(b.String()))
	f.api.SendText(chatA, alice, "long please")
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	if _, err := f.api.WaitCalls(ctx, "sendMessage", 3); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, f.bot, chatA)
	sent := f.api.Messages(chatA)
	if len(sent) < 3 {
		t.Fatalf("%d messages", len(sent))
	}
	for i, s := range sent {
		if s.ParseMode != "HTML" {
			t.Errorf("message %d sent as %q: the fake refused the HTML?", i, s.ParseMode)
		}
		if n := len(utf16.Encode([]rune(s.Plain))); n > 4096 {
			t.Errorf("message %d is %d UTF-16 units", i, n)
		}
	}
	for _, c := range f.api.Calls("sendMessage") {
		if c.Status != 200 {
			t.Errorf("a part was refused: %d %s", c.Status, c.Error)
		}
	}
	if sent[0].ReplyTo == 0 || sent[1].ReplyTo != 0 {
		t.Errorf("only the first part replies: %d %d", sent[0].ReplyTo, sent[1].ReplyTo)
	}
}

func TestReplyGivesTheRepliedMessage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA, nil)
	f.api.SendText(chatA, alice, "first question")
	f.last(chatA, 1)
	waitIdle(t, f.bot, chatA)
	answer := f.api.Messages(chatA)[0].MessageID
	f.api.ReplyText(chatA, alice, answer, "why?")
	f.last(chatA, 2)
	p := f.agent.requests()[1].Prompt
	for _, w := range []string{"written by you (the assistant), a text", "<<<\necho: first question\n>>>", "The user's reply:\nwhy?"} {
		contains(t, p, w)
	}
	if !f.agent.requests()[1].Continue {
		t.Error("a reply to the bot does not continue the session")
	}
}

func TestReplyToACronNotification(t *testing.T) {
	t.Parallel()
	hist := t.TempDir()
	f := newFixture(t, allowA, func(o *Options) { o.CronHistoryDir = hist })
	// The cron scheduler sent message 1 of the chat; its inbox says so.
	f.api.SendText(chatA, alice, "/status")
	f.last(chatA, 1)
	notif := f.api.Messages(chatA)[0].MessageID
	inbox := []cron.InboxEntry{{ChatID: chatA, MessageID: notif, Job: "nightly", FiredAt: time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC),
		Instruction: "run the tests", Result: "2 failures", HistoryDir: filepath.Join(hist, "history", "ws", "20261130-020000-nightly")}}
	data, _ := json.Marshal(inbox)
	must(t, os.WriteFile(filepath.Join(hist, "telegram_messages.json"), data, 0o644))
	f.api.ReplyText(chatA, alice, notif, "fix them")
	f.last(chatA, 2)
	r := f.agent.requests()[0]
	for _, w := range []string{`scheduled job "nightly"`, "<<<\nrun the tests\n>>>", "<<<\n2 failures\n>>>", "20261130-020000-nightly: meta.json", "follow-up:\nfix them"} {
		contains(t, r.Prompt, w)
	}
	if r.Continue {
		t.Error("a reply to a cron notification continues the chat's session")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
