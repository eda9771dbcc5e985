package faketelegram

import (
	"encoding/json"
	"strings"
	"time"
)

// The Bot API's text limits, in UTF-16 code units after entity parsing.
const (
	maxText    = 4096
	maxCaption = 1024
)

// chatActions are sendChatAction's documented actions.
var chatActions = map[string]bool{
	"typing": true, "upload_photo": true, "record_video": true, "upload_video": true,
	"record_voice": true, "upload_voice": true, "upload_document": true, "choose_sticker": true,
	"find_location": true, "record_video_note": true, "upload_video_note": true,
}

// visibleText parses text in parse mode mode and returns what the user sees.
// MarkdownV2 and Markdown are accepted unjudged: the project sends HTML.
func visibleText(text, mode string) (string, *apiError) {
	switch strings.ToLower(mode) {
	case "":
		return text, nil
	case "html":
		plain, refusal := parseHTML(text)
		if refusal != "" {
			return "", badRequest("can't parse entities: " + refusal)
		}
		return plain, nil
	case "markdown", "markdownv2":
		return text, nil
	}
	return "", badRequest("unsupported parse_mode")
}

func (s *Server) chatID(p *params) (int64, *apiError) {
	if strings.TrimSpace(p.values["chat_id"]) == "" {
		return 0, badRequest("chat_id is empty")
	}
	id, ok := p.int64("chat_id")
	if !ok || id == 0 {
		return 0, badRequest("chat not found")
	}
	return id, nil
}

// replyTo reads reply_parameters (or the older reply_to_message_id) and checks
// that the message exists in the chat; s.mu is held.
func (s *Server) replyToLocked(p *params, c *chat) (int64, *apiError) {
	var rp struct {
		MessageID                int64 `json:"message_id"`
		AllowSendingWithoutReply bool  `json:"allow_sending_without_reply"`
	}
	if raw := p.values["reply_parameters"]; raw != "" {
		if err := json.Unmarshal([]byte(raw), &rp); err != nil {
			return 0, badRequest("can't parse reply parameters JSON object")
		}
	} else if id, ok := p.int64("reply_to_message_id"); ok {
		rp.MessageID = id
	}
	if rp.MessageID == 0 {
		return 0, nil
	}
	if rp.MessageID < 0 || rp.MessageID > c.lastID {
		if rp.AllowSendingWithoutReply {
			return 0, nil
		}
		return 0, badRequest("message to be replied not found")
	}
	return rp.MessageID, nil
}

func replyMarkup(p *params) (string, *apiError) {
	raw := p.values["reply_markup"]
	if raw == "" {
		return "", nil
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(raw), &obj); err != nil {
		return "", badRequest("can't parse reply keyboard markup JSON object")
	}
	return raw, nil
}

func (s *Server) sendMessage(p *params) (any, *apiError) {
	chatID, aerr := s.chatID(p)
	if aerr != nil {
		return nil, aerr
	}
	text, mode := p.values["text"], p.values["parse_mode"]
	if text == "" {
		return nil, badRequest("message text is empty")
	}
	plain, aerr := visibleText(text, mode)
	if aerr != nil {
		return nil, aerr
	}
	if strings.TrimSpace(plain) == "" {
		return nil, badRequest("message text is empty")
	}
	if utf16Len(plain) > maxText {
		return nil, badRequest("message is too long")
	}
	return s.post(p, chatID, &Sent{Method: "sendMessage", Text: text, ParseMode: mode, Plain: plain}, nil)
}

// post records m as sent to chatID once its reply markup and the message it
// replies to check out, numbering it after the chat's last message; withID runs
// under the lock once the id is known.
func (s *Server) post(p *params, chatID int64, m *Sent, withID func()) (any, *apiError) {
	markup, aerr := replyMarkup(p)
	if aerr != nil {
		return nil, aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chatLocked(chatID)
	reply, aerr := s.replyToLocked(p, c)
	if aerr != nil {
		return nil, aerr
	}
	c.lastID++
	m.ChatID, m.MessageID, m.ReplyTo, m.ReplyMarkup, m.Date = chatID, c.lastID, reply, markup, time.Now()
	if withID != nil {
		withID()
	}
	c.sent = append(c.sent, m)
	s.notifyLocked()
	return m.json(chatID), nil
}

func (s *Server) editMessageText(p *params) (any, *apiError) {
	if p.values["inline_message_id"] != "" {
		return nil, badRequest("inline messages are not supported by the fake")
	}
	chatID, aerr := s.chatID(p)
	if aerr != nil {
		return nil, aerr
	}
	id, _ := p.int64("message_id")
	text, mode := p.values["text"], p.values["parse_mode"]
	if text == "" {
		return nil, badRequest("message text is empty")
	}
	plain, aerr := visibleText(text, mode)
	if aerr != nil {
		return nil, aerr
	}
	if utf16Len(plain) > maxText {
		return nil, badRequest("MESSAGE_TOO_LONG")
	}
	markup, aerr := replyMarkup(p)
	if aerr != nil {
		return nil, aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.chatLocked(chatID).find(id)
	if m == nil {
		return nil, badRequest("message to edit not found")
	}
	if m.Method != "sendMessage" {
		return nil, badRequest("there is no text in the message to edit")
	}
	if m.Plain == plain && m.Text == text && m.ReplyMarkup == markup {
		return nil, badRequest("message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
	}
	m.Text, m.ParseMode, m.Plain, m.ReplyMarkup = text, mode, plain, markup
	m.Edits++
	s.notifyLocked()
	return m.json(chatID), nil
}

func (s *Server) sendDraft(p *params) (any, *apiError) {
	if _, aerr := s.chatID(p); aerr != nil {
		return nil, aerr
	}
	if id, ok := p.int64("draft_id"); !ok || id == 0 {
		return nil, badRequest("draft_id must be a non-zero integer")
	}
	plain, aerr := visibleText(p.values["text"], p.values["parse_mode"])
	if aerr != nil {
		return nil, aerr
	}
	if utf16Len(plain) > maxText {
		return nil, badRequest("message is too long")
	}
	return true, nil
}

func (s *Server) sendChatAction(p *params) (any, *apiError) {
	if _, aerr := s.chatID(p); aerr != nil {
		return nil, aerr
	}
	if !chatActions[p.values["action"]] {
		return nil, badRequest("wrong parameter action in request")
	}
	return true, nil
}

func (s *Server) editReplyMarkup(p *params) (any, *apiError) {
	chatID, aerr := s.chatID(p)
	if aerr != nil {
		return nil, aerr
	}
	id, _ := p.int64("message_id")
	markup, aerr := replyMarkup(p)
	if aerr != nil {
		return nil, aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.chatLocked(chatID).find(id)
	if m == nil {
		return nil, badRequest("message to edit not found")
	}
	if m.ReplyMarkup == markup {
		return nil, badRequest("message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
	}
	m.ReplyMarkup = markup
	m.Edits++
	s.notifyLocked()
	return m.json(chatID), nil
}

func (s *Server) deleteMessage(p *params) (any, *apiError) {
	chatID, aerr := s.chatID(p)
	if aerr != nil {
		return nil, aerr
	}
	id, _ := p.int64("message_id")
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chatLocked(chatID)
	for i, m := range c.sent {
		if m.MessageID == id {
			c.sent = append(c.sent[:i], c.sent[i+1:]...)
			s.notifyLocked()
			return true, nil
		}
	}
	return nil, badRequest("message to delete not found")
}
