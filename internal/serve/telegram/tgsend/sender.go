// Package tgsend delivers the serve layer's answers to Telegram chats: a
// Markdown answer as as many HTML messages as its length needs (plain text
// when Telegram refuses the HTML), files as photo, video or document, the
// typing indicator, and cron notifications. It waits out Telegram's flood
// control and retries its proxy's 5xx, so a long or unlucky answer arrives
// whole.
package tgsend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/etalab-ia/albert-code/internal/serve/cron"
	"github.com/etalab-ia/albert-code/internal/serve/telegram/tgmd"
)

// Options configure a Sender; the zero value is ready for production.
type Options struct {
	// Sleep waits d or until ctx ends, returning ctx's error then; tests
	// inject it to see and skip the waits. nil uses a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// ServerRetries bounds the retries of a 5xx or a broken connection per
	// call; 0 takes DefaultServerRetries, a negative value none.
	ServerRetries int
	Logger        *slog.Logger // nil: discard
}

// Sender sends to Telegram through a go-telegram/bot client.
type Sender struct {
	bot           *bot.Bot
	sleep         func(context.Context, time.Duration) error
	serverRetries int
	log           *slog.Logger
}

// New returns a Sender over b.
func New(b *bot.Bot, opts Options) *Sender {
	s := &Sender{bot: b, sleep: opts.Sleep, serverRetries: opts.ServerRetries, log: opts.Logger}
	if s.sleep == nil {
		s.sleep = sleepContext
	}
	switch {
	case s.serverRetries == 0:
		s.serverRetries = DefaultServerRetries
	case s.serverRetries < 0:
		s.serverRetries = 0
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s
}

// SendMarkdown sends a Markdown answer to chatID as tgmd.Split's messages, the
// first replying to message replyTo when it is not 0. It returns the id of
// every message sent, in order; on error, those sent before it.
func (s *Sender) SendMarkdown(ctx context.Context, chatID, replyTo int64, markdown string) ([]int64, error) {
	var ids []int64
	for i, chunk := range tgmd.Split(markdown, tgmd.Limit) {
		reply := int64(0)
		if i == 0 {
			reply = replyTo
		}
		sent, err := s.sendChunk(ctx, chatID, reply, chunk)
		ids = append(ids, sent...)
		if err != nil {
			return ids, fmt.Errorf("send part %d of the answer to chat %d: %w", i+1, chatID, err)
		}
	}
	return ids, nil
}

// SendPlain sends text as it is written, without markup, cut within
// Telegram's limit; it returns the id of every message sent.
func (s *Sender) SendPlain(ctx context.Context, chatID int64, text string) ([]int64, error) {
	var ids []int64
	for i, piece := range cutUTF16(text, tgmd.Limit) {
		if strings.TrimSpace(piece) == "" {
			continue
		}
		id, err := s.sendText(ctx, chatID, 0, piece, "")
		if err != nil {
			return ids, fmt.Errorf("send part %d of the message to chat %d: %w", i+1, chatID, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// sendChunk sends one rendered message, falling back to its plain text when
// Telegram refuses the HTML, and cutting the plain text when Telegram finds
// it too long, so that no part of the answer is lost to a renderer's slip.
func (s *Sender) sendChunk(ctx context.Context, chatID, replyTo int64, chunk tgmd.Message) ([]int64, error) {
	if strings.TrimSpace(chunk.Plain) == "" {
		return nil, nil
	}
	id, err := s.sendText(ctx, chatID, replyTo, chunk.HTML, models.ParseModeHTML)
	if err == nil {
		return []int64{id}, nil
	}
	k, _ := classify(err)
	if k != badEntities && k != tooLong {
		return nil, err
	}
	s.log.Warn("telegram: HTML refused, sending the plain text", "chat", chatID, "err", err)
	var ids []int64
	for i, piece := range cutUTF16(chunk.Plain, tgmd.Limit) {
		if i > 0 {
			replyTo = 0
		}
		id, err := s.sendText(ctx, chatID, replyTo, piece, "")
		if err != nil {
			return ids, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func (s *Sender) sendText(ctx context.Context, chatID, replyTo int64, text string, mode models.ParseMode) (int64, error) {
	p := &bot.SendMessageParams{ChatID: chatID, Text: text, ParseMode: mode}
	if replyTo != 0 {
		// The question may have been deleted meanwhile: answer anyway.
		p.ReplyParameters = &models.ReplyParameters{MessageID: int(replyTo), AllowSendingWithoutReply: true}
	}
	var msg *models.Message
	err := s.retry(ctx, "sendMessage", func() (err error) {
		msg, err = s.bot.SendMessage(ctx, p)
		return err
	})
	if err != nil {
		return 0, err
	}
	return int64(msg.ID), nil
}

// cutUTF16 cuts text into pieces of at most limit UTF-16 code units, at a
// line break or a space when one is in the second half of the piece.
func cutUTF16(text string, limit int) []string {
	var out []string
	for text != "" {
		units, end, lastBreak := 0, len(text), -1
		for i, r := range text {
			n := len(utf16.Encode([]rune{r}))
			if units+n > limit {
				end = i
				break
			}
			units += n
			if (r == '\n' || r == ' ') && units > limit/2 {
				lastBreak = i + 1
			}
		}
		if end < len(text) && lastBreak > 0 {
			end = lastBreak
		}
		out = append(out, text[:end])
		text = text[end:]
	}
	return out
}

// Typing shows "typing…" in chatID until ctx ends: Telegram clears the
// indicator after 5 s or at the next message, so it is sent every 4 s.
// Failures are logged, not returned: the indicator is a courtesy.
func (s *Sender) Typing(ctx context.Context, chatID int64) {
	for {
		_, err := s.bot.SendChatAction(ctx, &bot.SendChatActionParams{ChatID: chatID, Action: models.ChatActionTyping})
		if err != nil && ctx.Err() == nil {
			s.log.Debug("telegram: typing indicator", "chat", chatID, "err", err)
		}
		if s.sleep(ctx, TypingEvery) != nil {
			return
		}
	}
}

// TypingEvery is how often Typing renews the indicator, under Telegram's 5 s.
const TypingEvery = 4 * time.Second

// Notify sends a cron run's outcome to its chat, whole, and returns the id of
// every message sent: it makes the Sender a cron.Notifier.
func (s *Sender) Notify(ctx context.Context, n cron.Notification) ([]int64, error) {
	if n.ChatID == 0 {
		return nil, errors.New("notify: the notification has no chat id")
	}
	return s.SendMarkdown(ctx, n.ChatID, 0, n.Text)
}

var _ cron.Notifier = (*Sender)(nil)
