package telegram

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/etalab-ia/albert-code/internal/serve/cron"
)

// maxQuoted caps the replied-to text given to the agent; judgement: enough for
// any answer a user would reply to, small next to a model's context.
const maxQuoted = 8000

// messageKind names what a message holds, for the agent and the logs.
func messageKind(m *models.Message) string {
	switch {
	case len(m.Photo) > 0:
		return "photo"
	case m.Video != nil:
		return "video"
	case m.Document != nil:
		return fmt.Sprintf("document (%s)", cmp.Or(m.Document.FileName, "no name"))
	case m.Sticker != nil:
		return fmt.Sprintf("sticker (%s from set %s)", m.Sticker.Emoji, cmp.Or(m.Sticker.SetName, "none"))
	case m.Voice != nil:
		return "voice message"
	case m.Audio != nil:
		return "audio"
	case m.Animation != nil:
		return "animation/gif"
	case m.VideoNote != nil:
		return "video note"
	case m.Text != "":
		return "text"
	}
	return "non-text"
}

// author says who wrote m, from the agent's side.
func author(m *models.Message, botID int64) string {
	switch {
	case m.From == nil:
		return "the chat"
	case m.From.ID == botID:
		return "you (the assistant)"
	case m.From.Username != "":
		return fmt.Sprintf("the user @%s", m.From.Username)
	}
	return fmt.Sprintf("the user %s", strings.TrimSpace(m.From.FirstName+" "+m.From.LastName))
}

// replyPrompt gives the agent the message the user replied to, then the user's
// words. A quote (the part of the message the user selected) wins over the
// whole text.
func replyPrompt(reply *models.Message, quote *models.TextQuote, botID int64, followUp string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The user is replying to an earlier message (id %d) written by %s, a %s.\n", reply.ID, author(reply, botID), messageKind(reply))
	text := reply.Text
	if text == "" {
		text = reply.Caption
	}
	if quote != nil && quote.Text != "" {
		b.WriteString("The part of it the user quotes:\n")
		text = quote.Text
	} else if text != "" {
		b.WriteString("Its text:\n")
	}
	if text == "" {
		b.WriteString("It has no text.\n")
	} else {
		fence(&b, truncate(text, maxQuoted))
	}
	b.WriteString("\nThe user's reply:\n")
	b.WriteString(followUp)
	return b.String()
}

// cronReplyPrompt gives the agent the cron run whose notification the user
// replied to: the job, its instruction and result, and where its files are.
func cronReplyPrompt(e cron.InboxEntry, followUp string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The user is replying to the notification of the scheduled job %q, which fired at %s", e.Job, e.FiredAt.UTC().Format(time.RFC3339))
	if !e.FinishedAt.IsZero() {
		fmt.Fprintf(&b, " and finished at %s", e.FinishedAt.UTC().Format(time.RFC3339))
	}
	b.WriteString(".\n")
	if e.HistoryDir != "" {
		fmt.Fprintf(&b, "That run's folder is %s: meta.json (its settings and outcome), stdout.log, stderr.log, result.txt (its whole answer) and telegram.json. Read them if the user's question needs more than what follows.\n", e.HistoryDir)
	}
	b.WriteString("\nThe job's instruction:\n")
	fence(&b, e.Instruction)
	b.WriteString("\nIts result (it may be cut; result.txt has all of it):\n")
	fence(&b, e.Result)
	b.WriteString("\nThe user's follow-up:\n")
	b.WriteString(followUp)
	return b.String()
}

// fence writes s between markers the agent can tell from the user's words.
func fence(b *strings.Builder, s string) {
	b.WriteString("<<<\n")
	b.WriteString(strings.TrimRight(s, "\n"))
	b.WriteString("\n>>>\n")
}

// truncate cuts s to at most n bytes on a rune boundary, saying so.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[… %d more bytes cut]", len(s)-cut)
}
