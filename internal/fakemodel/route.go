package fakemodel

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// maxBody bounds a recorded request body; judgement: far above any agent's
// context window in bytes, far below what would hurt a test machine.
const maxBody = 64 << 20

// Recorded is one request as the fake model received it.
type Recorded struct {
	Method string         `json:"method"`
	Path   string         `json:"path"`
	Header http.Header    `json:"headers"`
	Body   string         `json:"body"`
	JSON   map[string]any `json:"json,omitempty"` // Body decoded, when it is a JSON object
	// Turn is the index of the script turn this request consumed, or -1 (not a
	// chat request, unreadable body, or script exhausted).
	Turn int `json:"turn"`
}

// chatRequest is the part of a chat request that changes the answer's shape.
type chatRequest struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

func (r chatRequest) includeUsage() bool {
	return r.StreamOptions != nil && r.StreamOptions.IncludeUsage
}

// route accepts both /v1-prefixed and bare paths, as real clients use either.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		writeOpenAIError(w, http.StatusServiceUnavailable, "fake model: server is closing", "server_error", "closing")
		return
	}
	defer s.leave()

	body, readErr := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	path := r.URL.Path
	if path == "/v1" || strings.HasPrefix(path, "/v1/") {
		path = strings.TrimPrefix(path, "/v1")
	}
	if isAnthropicPath(path) {
		s.routeAnthropic(w, r, path, body, readErr)
		return
	}
	isChat := (path == "/chat/completions" || path == "/responses") && r.Method == http.MethodPost

	var req chatRequest
	parseErr := readErr
	if isChat && parseErr == nil {
		parseErr = json.Unmarshal(body, &req)
	}
	if strings.HasPrefix(path, "/me/") {
		// Albert's account endpoints (/v1/me/usage, /v1/me/info) are no model wire:
		// an agent asks them at start-up for its quota warnings. They are answered
		// 404 and not recorded, so Requests lists what the model was sent.
		writeOpenAIError(w, http.StatusNotFound,
			fmt.Sprintf("fake model: no route for %s %s", r.Method, r.URL.Path), "invalid_request_error", "not_found")
		return
	}
	turnIndex, seq := s.record(r, body, isChat && parseErr == nil)
	w.Header().Set("x-request-id", fmt.Sprintf("req_fake_%d", seq))

	switch {
	case path == "/chat/completions" && r.Method != http.MethodPost,
		path == "/models" && r.Method != http.MethodGet:
		writeOpenAIError(w, http.StatusMethodNotAllowed,
			fmt.Sprintf("fake model: method %s not allowed on %s", r.Method, r.URL.Path), "invalid_request_error", "method_not_allowed")
	case path == "/models":
		s.models(w)
	case path == "/embeddings" && r.Method == http.MethodPost:
		s.embeddings(w, body)
	case !isChat:
		writeOpenAIError(w, http.StatusNotFound,
			fmt.Sprintf("fake model: no route for %s %s", r.Method, r.URL.Path), "invalid_request_error", "not_found")
	case parseErr != nil:
		writeOpenAIError(w, http.StatusBadRequest,
			fmt.Sprintf("fake model: chat request body is not a JSON object: %v", parseErr), "invalid_request_error", "invalid_json")
	case turnIndex < 0:
		// x-should-retry: the OpenAI SDKs would otherwise retry a 500 and
		// hide the real failure behind backoff.
		w.Header().Set("x-should-retry", "false")
		writeOpenAIError(w, http.StatusInternalServerError,
			fmt.Sprintf("fake model: script exhausted after %d requests", len(s.script.Turns)), "server_error", "script_exhausted")
	case path == "/responses":
		s.respondResponses(w, r, turnIndex, req)
	default:
		s.answer(w, r, turnIndex, req)
	}
}

// record stores the request and, for a chat request, claims the next turn in
// the same critical section, so Requests order matches turn order.
func (s *Server) record(r *http.Request, body []byte, consumes bool) (turnIndex, seq int) {
	rec := Recorded{
		Method: r.Method,
		Path:   r.URL.Path,
		Header: r.Header.Clone(),
		Body:   string(body),
		Turn:   -1,
	}
	_ = json.Unmarshal(body, &rec.JSON) // best effort: non-JSON bodies keep JSON nil
	s.mu.Lock()
	defer s.mu.Unlock()
	if consumes && s.next < len(s.script.Turns) {
		rec.Turn = s.next
		s.next++
	}
	s.recorded = append(s.recorded, rec)
	return rec.Turn, len(s.recorded)
}

func (s *Server) models(w http.ResponseWriter) {
	list := modelList{Object: "list", Data: []wireModel{}}
	created := time.Now().Unix()
	for _, m := range s.script.models() {
		typ := m.Type
		if typ == "" {
			typ = "text-generation"
		}
		aliases := m.Aliases
		if aliases == nil {
			aliases = []string{}
		}
		list.Data = append(list.Data, wireModel{
			ID: m.ID, Object: "model", Created: created, OwnedBy: "fakemodel",
			Type: typ, Aliases: aliases, MaxContextLength: m.MaxContextLength,
		})
	}
	writeJSON(w, http.StatusOK, list)
}

func writeOpenAIError(w http.ResponseWriter, status int, message, typ, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, openAIBody(message, typ, code))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, mustJSON(v))
}
