package cron

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Notifier sends a run's outcome to a chat. The Telegram implementation renders
// the Markdown and splits it within Telegram's limits, so a long result arrives
// whole; it returns the id of every message sent.
type Notifier interface {
	Notify(ctx context.Context, n Notification) (messageIDs []int64, err error)
}

// Notification is one run's outcome for a chat.
type Notification struct {
	ChatID  int64
	Job     string
	FiredAt time.Time
	Failed  bool
	// Text is Markdown: the job's name in bold, then the answer or why it failed.
	Text       string
	HistoryDir string
}

// notifyTimeout bounds a notification, which may run after a shutdown cancelled
// the job; judgement: a Bot API call retried once after a 429 fits.
const notifyTimeout = 30 * time.Second

// failureStderr is how much of stderr a failure notification quotes: its end,
// where the reason is.
const failureStderr = 1000

// notificationText is the message of a run: the answer, or why there is none.
func notificationText(job string, s *Summary, text, stderr string) string {
	title := "**[" + job + "]**"
	switch {
	case s.Status == StatusFailed && s.Error != "":
		return title + " job failed: " + s.Error
	case s.Status == StatusFailed:
		msg := fmt.Sprintf("%s job failed (exit %d", title, derefInt(s.ExitCode))
		if s.Stopped != "" && s.Stopped != "exited" {
			msg += ", " + s.Stopped
		}
		msg += ")"
		if e := tail(stderr, failureStderr); e != "" {
			msg += "\n\n```\n" + e + "\n```"
		}
		if text != "" {
			msg += "\n\n" + text
		}
		return msg
	case text == "":
		return title + " finished (no output)"
	}
	return title + "\n\n" + text
}

func derefInt(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// telegramRecord is a run folder's telegram.json.
type telegramRecord struct {
	ChatID     int64   `json:"chat_id"`
	MessageIDs []int64 `json:"message_ids,omitempty"`
	Error      string  `json:"error,omitempty"`
}

// inboxFile maps the messages cron sent to their runs, so the bot can give a
// reply to a notification its context.
const inboxFile = "telegram_messages.json"

// inboxCap keeps the file small: the original's 200 most recent messages.
const inboxCap = 200

// Caps of what the inbox repeats; the run folder keeps the whole.
const (
	inboxInstructionCap = 500
	inboxResultCap      = 2000
)

// InboxEntry is what the bot learns of a notification a user replies to.
type InboxEntry struct {
	ChatID      int64     `json:"chat_id"`
	MessageID   int64     `json:"message_id"`
	Job         string    `json:"job_name"`
	FiredAt     time.Time `json:"fired_at"`
	FinishedAt  time.Time `json:"finished_at"`
	Instruction string    `json:"instruction"`
	Result      string    `json:"result"`
	HistoryDir  string    `json:"history_dir,omitempty"`
}

// remember adds the messages of one notification to the inbox.
func (h *history) remember(entries []InboxEntry) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	path := filepath.Join(h.root, inboxFile)
	all, err := readInbox(path)
	if err != nil {
		return err
	}
	all = append(all, entries...)
	all = all[max(0, len(all)-inboxCap):]
	return writeJSON(path, all)
}

func readInbox(path string) ([]InboxEntry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read cron inbox: %w", err)
	}
	var all []InboxEntry
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, fmt.Errorf("read cron inbox %s: %w", path, err)
	}
	return all, nil
}

// LookupMessage finds the cron run that sent message messageID to chatID, in
// the inbox under the history folder historyDir. Telegram numbers messages per
// chat, so both are needed.
func LookupMessage(historyDir string, chatID, messageID int64) (InboxEntry, bool, error) {
	all, err := readInbox(filepath.Join(historyDir, inboxFile))
	if err != nil {
		return InboxEntry{}, false, err
	}
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].ChatID == chatID && all[i].MessageID == messageID {
			return all[i], true, nil
		}
	}
	return InboxEntry{}, false, nil
}
