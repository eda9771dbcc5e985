package fakemodel

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// The Anthropic Messages wire (POST /v1/messages, as Claude Code and the
// Anthropic SDKs send it, with or without ?beta=true) answers the same Script
// as chat completions: Reasoning becomes a thinking block, Text a text block,
// each ToolCall a tool_use block whose input arrives as fragmented
// input_json_delta pieces. Usage maps PromptTokens to input_tokens and
// CachedTokens to cache_read_input_tokens; FinishReason "stop", "tool_calls"
// and "length" become end_turn, tool_use and max_tokens, any other value is
// sent as the stop_reason verbatim (refusal, pause_turn...).

// anthropicRequest is the part of a Messages request that shapes the answer.
type anthropicRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
}

// isAnthropicPath reports whether path (without /v1) belongs to the Messages wire.
func isAnthropicPath(path string) bool {
	return path == "/messages" || path == "/messages/count_tokens"
}

// routeAnthropic serves the Messages endpoints; route has read the body and
// trimmed /v1 from path. Every answer, errors included, is in Anthropic's shape.
func (s *Server) routeAnthropic(w http.ResponseWriter, r *http.Request, path string, body []byte, readErr error) {
	isMessages := path == "/messages" && r.Method == http.MethodPost
	var req anthropicRequest
	parseErr := readErr
	if parseErr == nil {
		parseErr = json.Unmarshal(body, &req)
	}
	turnIndex, seq := s.record(r, body, isMessages && parseErr == nil)
	w.Header().Set("request-id", fmt.Sprintf("req_fake_%d", seq))
	switch {
	case r.Method != http.MethodPost:
		writeAnthropicError(w, http.StatusMethodNotAllowed, "invalid_request_error",
			fmt.Sprintf("fake model: method %s not allowed on %s", r.Method, r.URL.Path))
	case parseErr != nil:
		writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error",
			fmt.Sprintf("fake model: request body is not a JSON object: %v", parseErr))
	case path == "/messages/count_tokens":
		// Consumes no turn: a client counting tokens is not asking for an answer.
		writeJSON(w, http.StatusOK, map[string]int{"input_tokens": estimateTokens(body)})
	case turnIndex < 0:
		// x-should-retry: the Anthropic clients would otherwise retry a 500
		// and hide the real failure behind backoff.
		w.Header().Set("x-should-retry", "false")
		writeAnthropicError(w, http.StatusInternalServerError, "api_error",
			fmt.Sprintf("fake model: script exhausted after %d requests", len(s.script.Turns)))
	default:
		s.answerAnthropic(w, r, turnIndex, req)
	}
}

// estimateTokens is the count_tokens answer: four bytes a token, the usual
// rule of thumb for English text. Nothing in a test depends on its precision.
func estimateTokens(body []byte) int {
	return max(len(body)/4, 1)
}

// anthropicAnswerer writes one scripted turn as a Messages answer.
type anthropicAnswerer struct {
	s     *Server
	w     http.ResponseWriter
	r     *http.Request
	turn  Turn
	index int
	id    string
	model string
}

func (s *Server) answerAnthropic(w http.ResponseWriter, r *http.Request, turnIndex int, req anthropicRequest) {
	a := &anthropicAnswerer{
		s: s, w: w, r: r,
		turn:  s.script.Turns[turnIndex],
		index: turnIndex,
		id:    fmt.Sprintf("msg_fake_%d", turnIndex),
		model: req.Model,
	}
	if a.model == "" {
		a.model = s.script.models()[0].ID
	}
	switch {
	case a.turn.Error != nil:
		(&answerer{s: s, w: w, r: r, turn: a.turn}).fail()
	case req.Stream:
		a.stream()
	default:
		a.complete()
	}
}

func (a *anthropicAnswerer) header(contentType string) { setHeaders(a.w, a.turn, contentType) }

// complete writes one message object after the turn's whole Delay.
func (a *anthropicAnswerer) complete() {
	a.header("application/json")
	a.s.sleep(a.r.Context(), a.turn.Delay())
	a.s.cutShort(a.r.Context(), a.turn)
	var content []anthropicBlock
	if len(a.turn.Reasoning) > 0 {
		content = append(content, anthropicBlock{Type: "thinking", Thinking: new(strings.Join(a.turn.Reasoning, "")), Signature: new(fakeSignature)})
	}
	if len(a.turn.Text) > 0 {
		content = append(content, anthropicBlock{Type: "text", Text: new(strings.Join(a.turn.Text, ""))})
	}
	for i, c := range a.turn.ToolCalls {
		content = append(content, anthropicBlock{Type: "tool_use", ID: c.anthropicID(a.index, i), Name: c.Name, Input: toolInput(c.Arguments)})
	}
	msg := a.message(content)
	msg.StopReason = new(a.turn.anthropicStopReason())
	msg.Usage = a.turn.Usage.anthropic(true)
	writeJSON(a.w, http.StatusOK, msg)
}

// fakeSignature signs thinking blocks: clients echo it back and never check it.
const fakeSignature = "fakemodel-signature"

// stream writes the turn as Messages server-sent events: message_start, one
// block per kind (thinking, text, each tool_use) with its deltas,
// message_delta with the stop reason and usage, then message_stop.
func (a *anthropicAnswerer) stream() {
	a.header("text/event-stream; charset=utf-8")
	a.w.Header().Set("Cache-Control", "no-cache")
	ctx := a.r.Context()
	a.s.sleep(ctx, a.turn.FirstByteDelay)
	a.w.WriteHeader(http.StatusOK)

	start := a.message([]anthropicBlock{})
	start.Usage = a.turn.Usage.anthropic(false)
	a.event("message_start", map[string]any{"type": "message_start", "message": start})
	index := 0
	block := func(head anthropicBlock, deltas []map[string]any) {
		a.event("content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": head})
		for _, d := range deltas {
			a.s.sleep(ctx, a.turn.ChunkDelay)
			a.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": d})
		}
		a.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	if len(a.turn.Reasoning) > 0 {
		var deltas []map[string]any
		for _, piece := range a.turn.Reasoning {
			deltas = append(deltas, map[string]any{"type": "thinking_delta", "thinking": piece})
		}
		deltas = append(deltas, map[string]any{"type": "signature_delta", "signature": fakeSignature})
		block(anthropicBlock{Type: "thinking", Thinking: new(""), Signature: new("")}, deltas)
	}
	if len(a.turn.Text) > 0 {
		var deltas []map[string]any
		for _, piece := range a.turn.Text {
			deltas = append(deltas, map[string]any{"type": "text_delta", "text": piece})
		}
		block(anthropicBlock{Type: "text", Text: new("")}, deltas)
	}
	for i, c := range a.turn.ToolCalls {
		var deltas []map[string]any
		for _, piece := range splitRunes(c.Arguments, c.fragments()) {
			deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": piece})
		}
		block(anthropicBlock{Type: "tool_use", ID: c.anthropicID(a.index, i), Name: c.Name, Input: json.RawMessage("{}")}, deltas)
	}
	a.s.cutShort(ctx, a.turn)
	a.event("message_delta", map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": a.turn.anthropicStopReason(), "stop_sequence": nil},
		"usage": a.turn.Usage.anthropic(true),
	})
	a.event("message_stop", map[string]any{"type": "message_stop"})
}

func (a *anthropicAnswerer) message(content []anthropicBlock) anthropicMessage {
	return anthropicMessage{ID: a.id, Type: "message", Role: "assistant", Model: a.model, Content: content}
}

// event writes and flushes one named SSE event; a client that went away ends
// the handler.
func (a *anthropicAnswerer) event(name string, data any) {
	if _, err := io.WriteString(a.w, "event: "+name+"\ndata: "+mustJSON(data)+"\n\n"); err != nil {
		abort()
	}
	if err := http.NewResponseController(a.w).Flush(); err != nil {
		abort()
	}
}

func (t Turn) anthropicStopReason() string {
	switch r := t.finishReason(); r {
	case "stop":
		return "end_turn"
	case "tool_calls":
		return "tool_use"
	case "length":
		return "max_tokens"
	default:
		return r
	}
}

func (c ToolCall) anthropicID(turnIndex, callIndex int) string {
	if c.ID != "" {
		return c.ID
	}
	return fmt.Sprintf("toolu_fake_%d_%d", turnIndex, callIndex)
}

// toolInput is a non-streamed tool_use input: the arguments when they are
// JSON, {} when empty, else the text as a JSON string, so a malformed input
// scripted on purpose still reaches the client.
func toolInput(args string) json.RawMessage {
	switch {
	case args == "":
		return json.RawMessage("{}")
	case json.Valid([]byte(args)):
		return json.RawMessage(args)
	default:
		return json.RawMessage(mustJSON(args))
	}
}

// AnthropicError answers with Anthropic's envelope:
// {"type":"error","error":{"type":...,"message":...}}, as api.anthropic.com
// does (invalid_request_error 400, authentication_error 401,
// rate_limit_error 429, api_error 500, overloaded_error 529...).
func AnthropicError(status int, typ, message string) Turn {
	return ErrorTurn(status, anthropicBody(typ, message))
}

func anthropicBody(typ, message string) string {
	return mustJSON(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": message}})
}

func writeAnthropicError(w http.ResponseWriter, status int, typ, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, anthropicBody(typ, message))
}

// AnthropicURL is the base URL Anthropic clients take (ANTHROPIC_BASE_URL):
// the server's root, since they add /v1/messages themselves.
func (s *Server) AnthropicURL() string {
	return "http://" + s.ln.Addr().String()
}
