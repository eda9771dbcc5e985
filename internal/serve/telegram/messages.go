package telegram

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/etalab-ia/albert-code/internal/serve/cron"
)

// onMessage routes a message: refused unless allowed, then a command, a file
// or a prompt. Stickers, audio and the like are not taken, as in the original.
func (b *Bot) onMessage(ctx context.Context, m *models.Message) {
	chat, user := m.Chat.ID, userID(m.From)
	if !b.currentSettings().Allowed(chat, user) {
		b.log.Warn("telegram: message from a chat or user not allowed, ignored", "chat", chat, "user", user)
		return
	}
	text := m.Text
	if text == "" {
		text = m.Caption
	}
	if m.Text != "" {
		if name, arg, ok := b.parseCommand(m.Text); ok {
			b.command(ctx, m, name, arg)
			return
		}
	}
	if f, ok := incomingFile(m); ok {
		b.onFile(ctx, m, f, text)
		return
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	prompt, fresh := b.promptFor(m, text)
	b.enqueue(ctx, m, func(ctx context.Context) {
		b.inWorkspace(ctx, m, func(ctx context.Context, ws string, cfg ChatConfig) {
			b.runAgent(ctx, m, ws, cfg, prompt, fresh)
		})
	})
}

// onFile refuses a file past the size cap from its announced size, before any
// download. Otherwise the download starts at once, without waiting for the
// chat's turn: a save never overwrites (linkUnused), so it cannot clobber what
// a run is writing, and a user sending files while the agent works is not
// kept waiting. A caption is a prompt, queued now so that it keeps its place
// among the chat's messages, and run once the file is saved.
func (b *Bot) onFile(ctx context.Context, m *models.Message, f incoming, caption string) {
	chat := m.Chat.ID
	limit := b.currentSettings().MaxUpload
	if f.Size > limit {
		b.say(ctx, chat, fmt.Sprintf("file too large: %s is %s, the limit is %s (max_upload in the bot's YAML)", f.Name, humanBytes(f.Size), humanBytes(limit)))
		return
	}
	ws, err := b.opts.Root.Workspace(workspaceName(chat, b.chatConfig(chat)), true)
	if err != nil {
		b.say(ctx, chat, "workspace error: "+err.Error())
		return
	}
	type saved struct {
		name string
		err  error
	}
	done := make(chan saved, 1)
	hasCaption := strings.TrimSpace(caption) != ""
	b.jobs.Go(func() {
		name, err := b.download(b.runCtx, ws, f, limit)
		done <- saved{name, err}
		switch {
		case err != nil && b.runCtx.Err() == nil:
			b.say(b.runCtx, chat, err.Error())
		case err == nil:
			b.log.Info("telegram: file saved", "chat", chat, "name", name, "kind", f.Kind)
			if !hasCaption {
				b.say(b.runCtx, chat, "saved "+name)
			}
		}
	})
	if !hasCaption {
		return
	}
	prompt, fresh := b.promptFor(m, caption)
	b.enqueue(ctx, m, func(ctx context.Context) {
		var s saved
		select {
		case s = <-done:
		case <-ctx.Done():
			return
		}
		if s.err != nil {
			return // already said
		}
		b.inWorkspace(ctx, m, func(ctx context.Context, ws string, cfg ChatConfig) {
			intro := fmt.Sprintf("The user sent a %s, saved in your working folder as %q.\n\n", f.Kind, s.name)
			b.runAgent(ctx, m, ws, cfg, intro+prompt, fresh)
		})
	})
}

// promptFor builds the prompt of a message: the text, with the message it
// replies to as context. A reply to a cron notification gets the job's run and
// starts a fresh session (the chat's session knows nothing of that run).
func (b *Bot) promptFor(m *models.Message, text string) (prompt string, fresh bool) {
	r := m.ReplyToMessage
	if r == nil {
		return text, false
	}
	if dir := b.opts.CronHistoryDir; dir != "" {
		e, ok, err := cron.LookupMessage(dir, m.Chat.ID, int64(r.ID))
		if err != nil {
			b.log.Warn("telegram: cron inbox unreadable", "dir", dir, "err", err)
		}
		if ok {
			b.log.Info(fmt.Sprintf("telegram: reply to message %d kind=cron job=%s", r.ID, e.Job), "chat", m.Chat.ID)
			return cronReplyPrompt(e, text), true
		}
	}
	b.log.Info(fmt.Sprintf("telegram: reply to message %d kind=%s", r.ID, messageKind(r)), "chat", m.Chat.ID)
	return replyPrompt(r, m.Quote, b.botID, text), false
}

// say sends a notice as it is written, logging a failure: the chat has no
// other channel. Plain text, so a model name with underscores or a prompt with
// asterisks shows as typed; a long one is cut like any message.
func (b *Bot) say(ctx context.Context, chat int64, text string) {
	if _, err := b.opts.Sender.SendPlain(ctx, chat, text); err != nil {
		b.log.Warn("telegram: send failed", "chat", chat, "err", err)
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
