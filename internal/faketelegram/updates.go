package faketelegram

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// getUpdates' limits, from the Bot API reference.
const (
	maxPollLimit   = 100
	maxPollTimeout = 50 * time.Second
)

type queuedUpdate struct {
	id   int64
	kind string // the update's field: message, callback_query, ...
	body map[string]any
}

// SendUpdate queues a raw update for getUpdates and returns its update_id.
// update is any value that marshals to a JSON object holding one update field,
// such as {"message": {...}} or a models.Update; update_id is set by the
// server. The helpers below build the usual ones.
func (s *Server) SendUpdate(update any) int64 {
	raw, err := json.Marshal(update)
	if err != nil {
		panic(fmt.Sprintf("faketelegram: SendUpdate: %v", err))
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		panic(fmt.Sprintf("faketelegram: SendUpdate wants a JSON object: %v", err))
	}
	delete(body, "update_id")
	kind := ""
	for k, v := range body {
		if v != nil {
			kind = k
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queueLocked(kind, body)
}

func (s *Server) queueLocked(kind string, body map[string]any) int64 {
	id := s.nextUpdateID
	s.nextUpdateID++
	body["update_id"] = id
	s.updates = append(s.updates, queuedUpdate{id: id, kind: kind, body: body})
	s.notifyLocked()
	return id
}

// userMessageLocked builds a message from user userID in chat chatID with the
// chat's next message id; s.mu is held.
func (s *Server) userMessageLocked(chatID, userID int64) map[string]any {
	c := s.chatLocked(chatID)
	c.lastID++
	return map[string]any{
		"message_id": c.lastID,
		"from":       map[string]any{"id": userID, "is_bot": false, "first_name": "User" + strconv.FormatInt(userID, 10), "language_code": "fr"},
		"chat":       chatJSON(chatID, userID),
		"date":       time.Now().Unix(),
	}
}

func chatJSON(chatID, userID int64) map[string]any {
	if chatID > 0 {
		return map[string]any{"id": chatID, "type": "private", "first_name": "User" + strconv.FormatInt(userID, 10)}
	}
	return map[string]any{"id": chatID, "type": "supergroup", "title": "Group " + strconv.FormatInt(-chatID, 10)}
}

func (s *Server) queueMessage(chatID, userID int64, fill func(msg map[string]any)) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	msg := s.userMessageLocked(chatID, userID)
	fill(msg)
	s.queueLocked("message", map[string]any{"message": msg})
	return msg["message_id"].(int64)
}

// SendText queues a text message from userID in chatID (private when chatID
// is positive) and returns its message id. Commands get their bot_command
// entities, as Telegram adds them.
func (s *Server) SendText(chatID, userID int64, text string) int64 {
	return s.queueMessage(chatID, userID, func(msg map[string]any) { setText(msg, text) })
}

// ReplyText queues a text message that replies to message replyTo of the chat
// (a message the bot sent, or one a user sent) and returns its id.
func (s *Server) ReplyText(chatID, userID, replyTo int64, text string) int64 {
	s.mu.Lock()
	original := s.chatLocked(chatID).find(replyTo)
	s.mu.Unlock()
	return s.queueMessage(chatID, userID, func(msg map[string]any) {
		setText(msg, text)
		if original != nil {
			msg["reply_to_message"] = original.json(chatID)
		} else {
			msg["reply_to_message"] = map[string]any{"message_id": replyTo, "chat": chatJSON(chatID, userID), "date": time.Now().Unix()}
		}
	})
}

func setText(msg map[string]any, text string) {
	msg["text"] = text
	if ents := commandEntities(text); len(ents) > 0 {
		msg["entities"] = ents
	}
}

// commandEntities finds /commands at word starts, with UTF-16 offsets.
func commandEntities(text string) []map[string]any {
	var ents []map[string]any
	units := 0
	prev := ' '
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		if rs[i] == '/' && (prev == ' ' || prev == '\n' || i == 0) {
			j := i + 1
			for j < len(rs) && (isCommandRune(rs[j]) || (rs[j] == '@' && j > i+1)) {
				j++
			}
			if j-i > 1 && j-i <= 33+len(BotUsername)+1 {
				ents = append(ents, map[string]any{"type": "bot_command", "offset": units, "length": j - i})
			}
		}
		units += utf16Len(string(rs[i]))
		prev = rs[i]
	}
	return ents
}

func isCommandRune(r rune) bool {
	return r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
}

// PressButton queues a callback_query: userID pressed the inline button with
// callback data on message messageID of chatID. It returns the query's id,
// which answerCallbackQuery takes.
func (s *Server) PressButton(chatID, userID, messageID int64, data string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.callbackSeq++
	id := fmt.Sprintf("cbq%d", s.callbackSeq)
	msg := map[string]any{"message_id": messageID, "chat": chatJSON(chatID, userID), "date": time.Now().Unix()}
	if m := s.chatLocked(chatID).find(messageID); m != nil {
		msg = m.json(chatID)
	}
	s.queueLocked("callback_query", map[string]any{"callback_query": map[string]any{
		"id": id, "chat_instance": strconv.FormatInt(chatID, 10), "data": data,
		"from":    map[string]any{"id": userID, "is_bot": false, "first_name": "User" + strconv.FormatInt(userID, 10)},
		"message": msg,
	}})
	return id
}

// Pending is how many updates getUpdates has not had confirmed.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.updates)
}

func (s *Server) getUpdates(r *http.Request, p *params) (any, *apiError) {
	limit := maxPollLimit
	if v, ok := p.int64("limit"); ok && v >= 1 && v <= maxPollLimit {
		limit = int(v)
	}
	var timeout time.Duration
	if v, ok := p.int64("timeout"); ok && v > 0 {
		timeout = min(time.Duration(v)*time.Second, maxPollTimeout)
	}
	var allowed []string
	if raw := p.values["allowed_updates"]; raw != "" {
		if err := json.Unmarshal([]byte(raw), &allowed); err != nil {
			return nil, badRequest("can't parse allowed_updates JSON array")
		}
	}
	offset, hasOffset := p.int64("offset")
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()

	s.mu.Lock()
	s.polling++
	me := s.polling
	s.notifyLocked()
	for {
		if s.polling != me {
			s.mu.Unlock()
			return nil, &apiError{Code: http.StatusConflict, Description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"}
		}
		if hasOffset {
			s.confirmLocked(offset)
		}
		var out []map[string]any
		for _, u := range s.updates {
			if len(out) == limit {
				break
			}
			if len(allowed) == 0 || slices.Contains(allowed, u.kind) {
				out = append(out, u.body)
			}
		}
		if len(out) > 0 || timeout == 0 {
			s.mu.Unlock()
			if out == nil {
				out = []map[string]any{}
			}
			return out, nil
		}
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-deadline.C:
			timeout = 0
		case <-r.Context().Done():
			return []map[string]any{}, nil
		case <-s.closed:
			return []map[string]any{}, nil
		}
		s.mu.Lock()
	}
}

// confirmLocked forgets the updates before offset; a negative offset keeps
// only the last -offset updates, as the Bot API does.
func (s *Server) confirmLocked(offset int64) {
	if offset < 0 {
		if keep := int(-offset); keep < len(s.updates) {
			s.updates = s.updates[len(s.updates)-keep:]
		}
		return
	}
	i := 0
	for i < len(s.updates) && s.updates[i].id < offset {
		i++
	}
	s.updates = s.updates[i:]
}
