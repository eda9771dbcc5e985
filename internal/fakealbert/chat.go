package fakealbert

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
)

// ChatRequest is the part of a chat request a Responder sees.
type ChatRequest struct {
	Model    string        `json:"model"`
	Messages []ChatMessage `json:"messages"`
	Tools    []any         `json:"tools"`
	Stream   bool          `json:"stream"`
}

// ChatMessage is one message of a request.
type ChatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
}

// Answer is what the model says: text, or tool calls.
type Answer struct {
	Text      string
	ToolCalls []ToolCall
}

// ToolCall is a function call in an answer.
type ToolCall struct {
	Name      string
	Arguments string
}

// Responder decides the answer to a request.
type Responder func(ChatRequest) Answer

// Reply always answers text.
func Reply(text string) Responder { return func(ChatRequest) Answer { return Answer{Text: text} } }

// InputTokens is how the fake counts a request's input tokens: three characters a
// token plus four per message, deliberately not the client's default guess of four,
// so tests see the client calibrate.
func InputTokens(req ChatRequest) int {
	n := 0
	for _, m := range req.Messages {
		n += 4 + (len(m.Content)+2)/3
	}
	if len(req.Tools) > 0 {
		b, _ := json.Marshal(req.Tools)
		n += (len(b) + 2) / 3
	}
	return n
}

var completionSeq atomic.Int64

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	if err != nil {
		return
	}
	var req ChatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		detail(w, http.StatusUnprocessableEntity, []map[string]any{{"loc": []string{"body"}, "msg": "JSON decode error", "type": "json_invalid"}}, nil)
		return
	}
	now := s.opts.Clock.Now()
	s.mu.Lock()
	if len(s.injected) > 0 {
		c := s.injected[0]
		s.injected = s.injected[1:]
		s.stats.Canned++
		s.mu.Unlock()
		for k, v := range c.Headers {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(c.Status)
		_, _ = io.WriteString(w, c.Body)
		return
	}
	if s.busy > 0 {
		s.busy--
		s.stats.Busy++
		wait := s.busyWait
		s.mu.Unlock()
		detail(w, http.StatusServiceUnavailable, "Model is too busy, please try again later.", map[string]string{"Retry-After": strconv.Itoa(wait)})
		return
	}
	m, ok := s.model(req.Model)
	if !ok {
		s.mu.Unlock()
		detail(w, http.StatusNotFound, "Model not found.", nil)
		return
	}
	tokens := InputTokens(req)
	if msg, ok := s.admit(m, tokens, now); !ok {
		s.stats.TooMany++
		s.mu.Unlock()
		detail(w, http.StatusTooManyRequests, msg, s.retryAfterHeader(m, now))
		return
	}
	s.stats.Served++
	ans := s.opts.Responder(req)
	completion := (len(ans.Text) + 3) / 4
	s.usage = append(s.usage, usageEvent{Model: m.ID, Created: now.Unix(), Prompt: tokens, Completion: completion})
	s.mu.Unlock()
	id := fmt.Sprintf("chatcmpl-%d", completionSeq.Add(1))
	if req.Stream {
		streamAnswer(w, id, m.ID, now.Unix(), ans, tokens, completion)
		return
	}
	writeJSON(w, http.StatusOK, completionBody(id, m.ID, now.Unix(), ans, tokens, completion))
}

func usageJSON(prompt, completion int) map[string]int {
	return map[string]int{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
}

// toolCallsJSON writes calls with ids unique to the completion, as real servers do.
func toolCallsJSON(completionID string, calls []ToolCall, withIndex bool) []map[string]any {
	var out []map[string]any
	for i, c := range calls {
		tc := map[string]any{"id": fmt.Sprintf("call_%s_%d", strings.TrimPrefix(completionID, "chatcmpl-"), i), "type": "function",
			"function": map[string]string{"name": c.Name, "arguments": c.Arguments}}
		if withIndex {
			tc["index"] = i
		}
		out = append(out, tc)
	}
	return out
}

func finishReason(a Answer) string {
	if len(a.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func completionBody(id, model string, created int64, a Answer, prompt, completion int) map[string]any {
	msg := map[string]any{"role": "assistant", "content": a.Text}
	if len(a.ToolCalls) > 0 {
		msg["tool_calls"] = toolCallsJSON(id, a.ToolCalls, false)
	}
	return map[string]any{"id": id, "object": "chat.completion", "created": created, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finishReason(a)}},
		"usage":   usageJSON(prompt, completion)}
}

// streamAnswer writes the answer as OpenAI chunks, usage last, then [DONE].
func streamAnswer(w http.ResponseWriter, id, model string, created int64, a Answer, prompt, completion int) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	send := func(choices []any, usage any) {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model, "choices": choices}
		if usage != nil {
			c["usage"] = usage
		}
		b, _ := json.Marshal(c)
		_, _ = fmt.Fprintf(w, "data: %s\n\n", b)
	}
	delta := map[string]any{"role": "assistant", "content": a.Text}
	if len(a.ToolCalls) > 0 {
		delta["tool_calls"] = toolCallsJSON(id, a.ToolCalls, true)
	}
	send([]any{map[string]any{"index": 0, "delta": delta, "finish_reason": nil}}, nil)
	send([]any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finishReason(a)}}, nil)
	send([]any{}, usageJSON(prompt, completion))
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
