package telegram

import (
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/etalab-ia/albert-code/internal/serve/cron"
)

func TestReplyPrompt(t *testing.T) {
	t.Parallel()
	const botID = 555
	tests := []struct {
		name  string
		reply models.Message
		quote *models.TextQuote
		want  []string
	}{
		{"the bot's text", models.Message{ID: 12, From: &models.User{ID: botID}, Text: "The build is green."},
			nil, []string{"message (id 12) written by you (the assistant), a text.", "Its text:\n<<<\nThe build is green.\n>>>", "The user's reply:\nwhy?"}},
		{"a user's document", models.Message{ID: 3, From: &models.User{ID: 9, Username: "ana"}, Document: &models.Document{FileName: "q3.xlsx"}, Caption: "figures"},
			nil, []string{"written by the user @ana, a document (q3.xlsx).", "<<<\nfigures\n>>>"}},
		{"a sticker without text", models.Message{ID: 4, From: &models.User{ID: 9, FirstName: "Ana", LastName: "B"}, Sticker: &models.Sticker{Emoji: "👍", SetName: "pack"}},
			nil, []string{"the user Ana B, a sticker (👍 from set pack).", "It has no text."}},
		{"a quote wins", models.Message{ID: 5, From: &models.User{ID: botID}, Text: "one two three"},
			&models.TextQuote{Text: "two"}, []string{"The part of it the user quotes:\n<<<\ntwo\n>>>"}},
	}
	for _, tc := range tests {
		got := replyPrompt(&tc.reply, tc.quote, botID, "why?")
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: prompt lacks %q:\n%s", tc.name, w, got)
			}
		}
	}
	long := models.Message{ID: 6, Text: strings.Repeat("x", maxQuoted+10)}
	if got := replyPrompt(&long, nil, botID, "?"); !strings.Contains(got, "[… 10 more bytes cut]") {
		t.Error("a long replied-to message is not cut")
	}
}

func TestCronReplyPrompt(t *testing.T) {
	t.Parallel()
	e := cron.InboxEntry{Job: "nightly-tests", FiredAt: time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC), FinishedAt: time.Date(2026, 11, 30, 2, 3, 0, 0, time.UTC),
		Instruction: "Run the tests.", Result: "3 failures in pkg/x", HistoryDir: "/var/cron/history/ws/20261130-020000-nightly-tests"}
	got := cronReplyPrompt(e, "fix the first one")
	for _, w := range []string{`scheduled job "nightly-tests", which fired at 2026-11-30T02:00:00Z and finished at 2026-11-30T02:03:00Z`,
		"/var/cron/history/ws/20261130-020000-nightly-tests: meta.json", "result.txt",
		"instruction:\n<<<\nRun the tests.\n>>>", "<<<\n3 failures in pkg/x\n>>>", "follow-up:\nfix the first one"} {
		if !strings.Contains(got, w) {
			t.Errorf("prompt lacks %q:\n%s", w, got)
		}
	}
}
