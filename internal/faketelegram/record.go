package faketelegram

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Sent is a message the bot sent to a chat, as it stands now.
type Sent struct {
	// Method is sendMessage, sendDocument, sendPhoto or sendVideo.
	Method    string
	ChatID    int64
	MessageID int64
	// Text is the text or caption as sent, markup included; Plain is what
	// the user sees once Telegram parsed the entities.
	Text      string
	ParseMode string
	Plain     string
	// ReplyTo is the message this one replies to (reply_parameters or
	// reply_to_message_id), 0 for none.
	ReplyTo int64
	// ReplyMarkup is the reply_markup's JSON text, empty for none.
	ReplyMarkup string
	// FileName and File are the uploaded file of sendDocument, sendPhoto and
	// sendVideo; FileID is how getFile finds it.
	FileName string
	File     []byte
	FileID   string
	// Edits counts the editMessageText calls applied to it.
	Edits int
	Date  time.Time
}

type chat struct {
	id     int64
	lastID int64 // the last message id given in this chat, users' or bot's
	sent   []*Sent
}

func (c *chat) find(id int64) *Sent {
	for _, m := range c.sent {
		if m.MessageID == id {
			return m
		}
	}
	return nil
}

// json is the Message object the Bot API returns for m.
func (m *Sent) json(chatID int64) map[string]any {
	msg := map[string]any{
		"message_id": m.MessageID,
		"from":       map[string]any{"id": BotID, "is_bot": true, "first_name": "Fake Albert", "username": BotUsername},
		"chat":       chatJSON(chatID, chatID),
		"date":       m.Date.Unix(),
	}
	text := "text"
	if m.Method != "sendMessage" {
		text = "caption"
	}
	if m.Plain != "" {
		msg[text] = m.Plain
	}
	if m.Edits > 0 {
		msg["edit_date"] = time.Now().Unix()
	}
	if m.ReplyTo != 0 {
		msg["reply_to_message"] = map[string]any{"message_id": m.ReplyTo, "chat": chatJSON(chatID, chatID), "date": m.Date.Unix()}
	}
	if m.ReplyMarkup != "" {
		msg["reply_markup"] = json.RawMessage(m.ReplyMarkup)
	}
	if m.FileID != "" {
		file := map[string]any{"file_id": m.FileID, "file_unique_id": "u" + m.FileID, "file_size": len(m.File)}
		switch m.Method {
		case "sendPhoto":
			file["width"], file["height"] = 800, 600
			msg["photo"] = []any{file}
		case "sendVideo":
			file["width"], file["height"], file["duration"] = 640, 360, 1
			file["file_name"], file["mime_type"] = m.FileName, mimeOf(m.FileName)
			msg["video"] = file
		default:
			file["file_name"], file["mime_type"] = m.FileName, mimeOf(m.FileName)
			msg["document"] = file
		}
	}
	return msg
}

// Messages returns what the bot sent to chatID, oldest first.
func (s *Server) Messages(chatID int64) []Sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chatID]
	if c == nil {
		return nil
	}
	out := make([]Sent, len(c.sent))
	for i, m := range c.sent {
		out[i] = *m
	}
	return out
}

// WaitMessages waits until the bot has sent at least n messages to chatID and
// returns them all, or returns what it has and an error when ctx ends first.
func (s *Server) WaitMessages(ctx context.Context, chatID int64, n int) ([]Sent, error) {
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		if got := s.Messages(chatID); len(got) >= n {
			return got, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			got := s.Messages(chatID)
			return got, fmt.Errorf("faketelegram: chat %d has %d messages from the bot, want %d: %w", chatID, len(got), n, ctx.Err())
		}
	}
}

// WaitCalls waits until method has been called at least n times and returns
// those calls, or what it has and an error when ctx ends first.
func (s *Server) WaitCalls(ctx context.Context, method string, n int) ([]Call, error) {
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		if got := s.Calls(method); len(got) >= n {
			return got, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			got := s.Calls(method)
			return got, fmt.Errorf("faketelegram: %s called %d times, want %d: %w", method, len(got), n, ctx.Err())
		}
	}
}

// Calls returns every request of method (case-insensitive; "" for all),
// refused ones included, oldest first.
func (s *Server) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if method == "" || strings.EqualFold(c.Method, method) {
			out = append(out, c)
		}
	}
	return out
}

// Command is one entry of the bot's command menu.
type Command struct {
	Command     string `json:"command"`
	Description string `json:"description"`
}

// Commands returns what the last setMyCommands registered.
func (s *Server) Commands() []Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Command
	_ = json.Unmarshal(s.commands, &out)
	return out
}
