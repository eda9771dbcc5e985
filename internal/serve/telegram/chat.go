package telegram

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-telegram/bot/models"
)

// errCancelled is the cause of a run cancelled by /cancel.
var errCancelled = errors.New("cancelled from the chat")

// chatState is one chat's turn-taking: at most one job runs, others wait.
type chatState struct {
	running bool
	since   time.Time
	cancel  context.CancelCauseFunc
	queue   []func(context.Context)
}

// enqueue runs job in m's chat now, or after the chat's current job when the
// YAML says queue (up to queue_limit), or tells the user the chat is busy.
func (b *Bot) enqueue(ctx context.Context, m *models.Message, job func(context.Context)) {
	chat := m.Chat.ID
	s := b.currentSettings()
	b.mu.Lock()
	if b.stopping {
		b.mu.Unlock()
		b.say(ctx, chat, "the bot is restarting: send this again in a minute")
		return
	}
	st := b.chats[chat]
	if st == nil {
		st = &chatState{}
		b.chats[chat] = st
	}
	if st.running {
		if s.OnBusy == BusyReply || len(st.queue) >= s.QueueLimit {
			b.mu.Unlock()
			msg := "busy, try again later (or /cancel the current run)"
			if s.OnBusy == BusyQueue {
				msg = fmt.Sprintf("busy: %d messages already wait; try again later (or /cancel)", len(st.queue))
			}
			b.say(ctx, chat, msg)
			return
		}
		st.queue = append(st.queue, job)
		n := len(st.queue)
		b.mu.Unlock()
		b.say(ctx, chat, fmt.Sprintf("queued (%d before it); /cancel stops the current run and empties the queue", n))
		return
	}
	st.running = true
	b.jobs.Go(func() { b.work(chat, st, job) })
	b.mu.Unlock()
}

// work runs the chat's jobs in order until its queue is empty.
func (b *Bot) work(chat int64, st *chatState, job func(context.Context)) {
	for job != nil {
		ctx, cancel := context.WithCancelCause(b.runCtx)
		b.mu.Lock()
		st.since, st.cancel = time.Now(), cancel
		b.mu.Unlock()
		job(ctx)
		cancel(nil)
		b.mu.Lock()
		st.cancel, job = nil, nil
		if len(st.queue) > 0 && !b.stopping {
			job, st.queue = st.queue[0], st.queue[1:]
		} else {
			if len(st.queue) > 0 {
				b.log.Warn("telegram: queued messages dropped at shutdown", "chat", chat, "dropped", len(st.queue))
			}
			st.queue, st.running = nil, false
		}
		b.mu.Unlock()
	}
}

// cancelChat stops the chat's current run and empties its queue.
func (b *Bot) cancelChat(chat int64) (running bool, dropped int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := b.chats[chat]
	if st == nil || !st.running {
		return false, 0
	}
	dropped = len(st.queue)
	st.queue = nil
	if st.cancel != nil {
		st.cancel(errCancelled)
	}
	return true, dropped
}

// chatStatus describes the chat's turn-taking for /status.
func (b *Bot) chatStatus(chat int64) (running bool, since time.Time, queued int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := b.chats[chat]
	if st == nil || !st.running {
		return false, time.Time{}, 0
	}
	return true, st.since, len(st.queue)
}
