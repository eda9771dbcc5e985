package telegram

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/telegram/tgmd"
)

// DefaultDraftEvery is how often a streamed answer's draft is refreshed: the
// ~1 message per second per chat that Telegram's limits allow.
const DefaultDraftEvery = time.Second

// draftIDs numbers drafts; Telegram wants a non-zero id per draft.
var draftIDs atomic.Int64

// drafter shows an answer as it streams, with sendMessageDraft (Bot API 9.3;
// groups since 9.5): an ephemeral preview that the final message replaces.
// A chat or server that refuses drafts gets none for the rest of the run.
type drafter struct {
	b    *Bot
	chat int64
	id   string

	mu     sync.Mutex
	text   strings.Builder
	dirty  bool
	failed bool
}

func (b *Bot) newDrafter(chat int64) *drafter {
	return &drafter{b: b, chat: chat, id: strconv.FormatInt(draftIDs.Add(1), 10)}
}

// emit takes the run's events; only the answer's text is drafted.
func (d *drafter) emit(e backend.Event) {
	if e.Kind != backend.EventDelta || e.Text == "" {
		return
	}
	d.mu.Lock()
	d.text.WriteString(e.Text)
	d.dirty = true
	d.mu.Unlock()
}

// run refreshes the draft every period until ctx ends.
func (d *drafter) run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			d.flush(ctx)
		}
	}
}

// flush sends the draft if it changed: the last message's worth of the
// rendered answer so far, SEND_FILE tags hidden.
func (d *drafter) flush(ctx context.Context) {
	d.mu.Lock()
	if !d.dirty || d.failed {
		d.mu.Unlock()
		return
	}
	d.dirty = false
	text, _ := extractSendFiles(d.text.String())
	d.mu.Unlock()
	parts := tgmd.Split(text, tgmd.Limit)
	if len(parts) == 0 {
		return
	}
	last := parts[len(parts)-1]
	_, err := d.b.client.SendMessageDraft(ctx, &bot.SendMessageDraftParams{ChatID: d.chat, DraftID: d.id, Text: last.HTML, ParseMode: models.ParseModeHTML})
	if err != nil && ctx.Err() == nil {
		d.b.log.Info("telegram: drafts off for this run", "chat", d.chat, "err", err)
		d.mu.Lock()
		d.failed = true
		d.mu.Unlock()
	}
}
