// Package faketelegram is a Telegram Bot API server on 127.0.0.1 for tests:
// bots built with go-telegram/bot (or any client) talk to it over real HTTP as
// they would to api.telegram.org, and the test plays the users and reads what
// the bot sent.
//
// Start(t, token) serves /bot<token>/<method> and /file/bot<token>/<path> and
// closes on t.Cleanup; URL() is what bot.WithServerURL takes. Requests may be
// query strings, form-urlencoded, JSON or multipart, as the real API accepts.
// A wrong token answers 401 like Telegram.
//
// Users' side: SendText, ReplyText, SendDocument, SendPhoto, SendVideo,
// SendVoice, PressButton and SendUpdate queue updates that getUpdates delivers
// (long polling, offset confirmation, limit, allowed_updates). Message ids
// count from 1 in each chat, shared by the users' and the bot's messages.
//
// Bot's side: Messages and WaitMessages return what the bot sent to a chat
// (sendMessage, sendDocument, sendPhoto, sendVideo; editMessageText,
// editMessageReplyMarkup and deleteMessage applied), Calls and WaitCalls every
// request of a method (sendMessageDraft, sendChatAction, answerCallbackQuery
// are seen there), Commands what setMyCommands registered. Other methods
// answer 404 "Not Found: method not found". sendMessage and
// editMessageText judge parse_mode=HTML as Telegram does (allowed tags only,
// balanced, known entities; 1..4096 UTF-16 units after parsing); captions are
// capped at 1024; getFile refuses files over 20 MB. FailNext makes the next
// call of a method fail with a 429 (retry_after), a proxy's 502 page, or any
// error envelope.
package faketelegram

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// The bot's identity, as getMe reports it.
const (
	BotID       int64 = 7000001
	BotUsername       = "fake_albert_bot"
)

// Server is a fake Bot API. Its methods are safe for concurrent use.
type Server struct {
	token string
	http  *httptest.Server
	// closed ends long polls so that Close does not wait for their timeouts.
	closed    chan struct{}
	closeOnce sync.Once

	mu           sync.Mutex
	changed      chan struct{} // closed and replaced whenever state changes
	updates      []queuedUpdate
	nextUpdateID int64
	polling      int64 // id of the running getUpdates, for 409 Conflict
	chats        map[int64]*chat
	calls        []Call
	faults       map[string][]fault
	files        map[string]*storedFile
	nextFileID   int
	commands     json.RawMessage
	callbackSeq  int
}

// Start serves a fake Bot API for token on 127.0.0.1 until the test ends.
func Start(t testing.TB, token string) *Server {
	t.Helper()
	s := New(token)
	t.Cleanup(s.Close)
	return s
}

// New serves a fake Bot API for token on 127.0.0.1; the caller closes it.
func New(token string) *Server {
	s := &Server{
		token:        token,
		closed:       make(chan struct{}),
		changed:      make(chan struct{}),
		nextUpdateID: 100000001,
		chats:        map[int64]*chat{},
		faults:       map[string][]fault{},
		files:        map[string]*storedFile{},
		commands:     json.RawMessage("[]"),
	}
	s.http = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL is the server's base URL, such as http://127.0.0.1:40123, for
// bot.WithServerURL.
func (s *Server) URL() string { return s.http.URL }

// Token is the token the server accepts.
func (s *Server) Token() string { return s.token }

// Close ends pending long polls and stops the server.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closed)
		s.http.Close()
	})
}

// notifyLocked wakes everyone waiting for a change; s.mu is held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// chatLocked returns the chat with id, creating it; s.mu is held.
func (s *Server) chatLocked(id int64) *chat {
	c := s.chats[id]
	if c == nil {
		c = &chat{id: id}
		s.chats[id] = c
	}
	return c
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if rest, ok := strings.CutPrefix(r.URL.Path, "/file/bot"); ok {
		token, path, _ := strings.Cut(rest, "/")
		if token != s.token {
			writeError(w, apiError{Code: http.StatusUnauthorized, Description: "Unauthorized"})
			return
		}
		s.download(w, path)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/bot")
	if !ok {
		writeError(w, apiError{Code: http.StatusNotFound, Description: "Not Found"})
		return
	}
	token, method, _ := strings.Cut(rest, "/")
	if token != s.token {
		writeError(w, apiError{Code: http.StatusUnauthorized, Description: "Unauthorized"})
		return
	}
	p, err := readParams(w, r)
	if err != nil {
		writeError(w, *err)
		return
	}
	call := Call{Method: method, Params: p.values, Files: p.files, At: time.Now()}
	if f, ok := s.takeFault(method); ok {
		call.Status = f.code
		s.record(call)
		f.write(w)
		return
	}
	result, aerr := s.dispatch(r, method, p)
	if aerr != nil {
		call.Status = aerr.Code
		call.Error = aerr.Description
		s.record(call)
		writeError(w, *aerr)
		return
	}
	call.Status = http.StatusOK
	s.record(call)
	writeResult(w, result)
}

func (s *Server) record(c Call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
	s.notifyLocked()
}

func (s *Server) dispatch(r *http.Request, method string, p *params) (any, *apiError) {
	switch strings.ToLower(method) {
	case "getme":
		return map[string]any{"id": BotID, "is_bot": true, "first_name": "Fake Albert", "username": BotUsername,
			"can_join_groups": true, "can_read_all_group_messages": false, "supports_inline_queries": false}, nil
	case "getupdates":
		return s.getUpdates(r, p)
	case "deletewebhook":
		if p.values["drop_pending_updates"] == "true" {
			s.mu.Lock()
			s.updates = nil
			s.mu.Unlock()
		}
		return true, nil
	case "close", "logout":
		return true, nil
	case "setmycommands":
		return s.setCommands(p)
	case "getmycommands":
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.commands, nil
	case "sendmessage":
		return s.sendMessage(p)
	case "sendmessagedraft":
		return s.sendDraft(p)
	case "editmessagetext":
		return s.editMessageText(p)
	case "editmessagereplymarkup":
		return s.editReplyMarkup(p)
	case "deletemessage":
		return s.deleteMessage(p)
	case "sendchataction":
		return s.sendChatAction(p)
	case "answercallbackquery":
		if p.values["callback_query_id"] == "" {
			return nil, badRequest("query_id is empty")
		}
		return true, nil
	case "senddocument":
		return s.sendFile(p, "document")
	case "sendphoto":
		return s.sendFile(p, "photo")
	case "sendvideo":
		return s.sendFile(p, "video")
	case "getfile":
		return s.getFile(p)
	}
	return nil, &apiError{Code: http.StatusNotFound, Description: "Not Found: method not found"}
}

func (s *Server) setCommands(p *params) (any, *apiError) {
	raw := p.values["commands"]
	var cmds []struct {
		Command     string `json:"command"`
		Description string `json:"description"`
	}
	if err := json.Unmarshal([]byte(raw), &cmds); err != nil {
		return nil, badRequest("can't parse commands JSON object")
	}
	for _, c := range cmds {
		if c.Command == "" || len(c.Command) > 32 || strings.IndexFunc(c.Command, func(r rune) bool { return r != '_' && (r < 'a' || r > 'z') && (r < '0' || r > '9') }) >= 0 {
			return nil, badRequest(fmt.Sprintf("BOT_COMMAND_INVALID: %q", c.Command))
		}
		if c.Description == "" || len([]rune(c.Description)) > 256 {
			return nil, badRequest("BOT_COMMAND_DESCRIPTION_INVALID")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commands = json.RawMessage(raw)
	return true, nil
}
