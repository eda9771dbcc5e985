package fakemodel

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// StreamFailure ends a streamed Responses answer with response.failed after the
// turn's scripted deltas, instead of response.completed: the model provider
// failing mid-answer (Codex reads its code to tell a quota from a context overflow).
type StreamFailure struct {
	Code    string // "server_error" when empty
	Message string
}

// responder writes one scripted turn on the OpenAI Responses wire
// (POST /v1/responses, as Codex calls it); it lives for one request.
type responder struct {
	s       *Server
	w       http.ResponseWriter
	r       *http.Request
	turn    Turn
	index   int
	id      string
	model   string
	created int64
	seq     int
	output  []respItem
}

// respondResponses answers a Responses request with the same Turn a chat request
// would get: its reasoning, text and tool calls become output items, in that order.
func (s *Server) respondResponses(w http.ResponseWriter, r *http.Request, turnIndex int, req chatRequest) {
	p := &responder{
		s: s, w: w, r: r,
		turn:    s.script.Turns[turnIndex],
		index:   turnIndex,
		id:      fmt.Sprintf("resp_fake_%d", turnIndex),
		model:   req.Model,
		created: time.Now().Unix(),
	}
	if p.model == "" {
		p.model = s.script.models()[0].ID
	}
	switch {
	case p.turn.Error != nil:
		a := &answerer{s: s, w: w, r: r, turn: p.turn}
		a.fail()
	case req.Stream:
		p.stream()
	default:
		p.complete()
	}
}

// complete writes the whole response object after the turn's Delay.
func (p *responder) complete() {
	p.header("application/json")
	p.s.sleep(p.r.Context(), p.turn.Delay())
	p.s.cutShort(p.r.Context(), p.turn)
	p.output = p.items()
	if f := p.turn.StreamFailure; f != nil {
		writeJSON(p.w, http.StatusOK, p.response("failed", f))
		return
	}
	writeJSON(p.w, http.StatusOK, p.response("completed", nil))
}

// stream writes the turn as Responses server-sent events: created, in_progress,
// then each output item (added, its deltas, done), then completed or failed.
func (p *responder) stream() {
	p.header("text/event-stream; charset=utf-8")
	p.w.Header().Set("Cache-Control", "no-cache")
	ctx := p.r.Context()
	p.s.sleep(ctx, p.turn.FirstByteDelay)
	p.w.WriteHeader(http.StatusOK)

	p.event("response.created", map[string]any{"response": p.response("in_progress", nil)})
	p.event("response.in_progress", map[string]any{"response": p.response("in_progress", nil)})
	for i, it := range p.items() {
		p.streamItem(i, it)
	}
	p.s.cutShort(ctx, p.turn)
	if f := p.turn.StreamFailure; f != nil {
		p.event("response.failed", map[string]any{"response": p.response("failed", f)})
		return
	}
	p.event("response.completed", map[string]any{"response": p.response("completed", nil)})
}

// streamItem sends one output item: its added event, a delta per scripted piece
// (each after the turn's chunk delay), and its done event.
func (p *responder) streamItem(outputIndex int, it respItem) {
	ctx := p.r.Context()
	at := map[string]any{"output_index": outputIndex, "item_id": it.ID}
	with := func(kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range at {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	if it.Type == "function_call" {
		// The head fragment of a chat tool call: the chunk delay counts it too.
		p.s.sleep(ctx, p.turn.ChunkDelay)
	}
	p.event("response.output_item.added", map[string]any{"output_index": outputIndex, "item": it.added()})
	switch it.Type {
	case "reasoning":
		part := map[string]any{"type": "summary_text", "text": ""}
		p.event("response.reasoning_summary_part.added", with("summary_index", 0, "part", part))
		for _, piece := range it.pieces {
			p.s.sleep(ctx, p.turn.ChunkDelay)
			p.event("response.reasoning_summary_text.delta", with("summary_index", 0, "delta", piece))
		}
		p.event("response.reasoning_summary_text.done", with("summary_index", 0, "text", it.text()))
		part["text"] = it.text()
		p.event("response.reasoning_summary_part.done", with("summary_index", 0, "part", part))
	case "message":
		part := map[string]any{"type": "output_text", "text": "", "annotations": []any{}}
		p.event("response.content_part.added", with("content_index", 0, "part", part))
		for _, piece := range it.pieces {
			p.s.sleep(ctx, p.turn.ChunkDelay)
			p.event("response.output_text.delta", with("content_index", 0, "delta", piece, "logprobs", []any{}))
		}
		p.event("response.output_text.done", with("content_index", 0, "text", it.text(), "logprobs", []any{}))
		part["text"] = it.text()
		p.event("response.content_part.done", with("content_index", 0, "part", part))
	case "function_call":
		for _, piece := range it.pieces {
			p.s.sleep(ctx, p.turn.ChunkDelay)
			p.event("response.function_call_arguments.delta", with("delta", piece))
		}
		p.event("response.function_call_arguments.done", with("arguments", it.text()))
	}
	p.output = append(p.output, it)
	p.event("response.output_item.done", map[string]any{"output_index": outputIndex, "item": it})
}

// items lays the turn out as Responses output items: one reasoning item, one
// message, then one function_call per tool call, each with its streamed pieces.
// Calls always come one after another: the Responses wire has no interleaving.
func (p *responder) items() []respItem {
	var out []respItem
	if len(p.turn.Reasoning) > 0 {
		out = append(out, respItem{Type: "reasoning", ID: fmt.Sprintf("rs_fake_%d", p.index), pieces: p.turn.Reasoning})
	}
	if len(p.turn.Text) > 0 {
		out = append(out, respItem{Type: "message", ID: fmt.Sprintf("msg_fake_%d", p.index), pieces: p.turn.Text})
	}
	for i, c := range p.turn.ToolCalls {
		out = append(out, respItem{
			Type: "function_call", ID: fmt.Sprintf("fc_fake_%d_%d", p.index, i),
			CallID: c.id(p.index, i), Name: c.Name,
			pieces: splitRunes(c.Arguments, c.fragments()),
		})
	}
	return out
}

// response is the response object that created, in_progress, completed and
// failed carry; output and usage are filled as far as the stream has gone.
func (p *responder) response(status string, failure *StreamFailure) map[string]any {
	output := append([]respItem{}, p.output...)
	resp := map[string]any{
		"id": p.id, "object": "response", "created_at": p.created, "status": status,
		"model": p.model, "output": output, "error": nil, "incomplete_details": nil,
		"usage": nil,
	}
	switch status {
	case "completed":
		resp["usage"] = p.turn.Usage.responses()
	case "failed":
		code := failure.Code
		if code == "" {
			code = "server_error"
		}
		resp["error"] = map[string]any{"code": code, "message": failure.Message}
	}
	return resp
}

// event writes and flushes one named SSE event; its data repeats the name in
// "type" and numbers the events, as OpenAI's server does.
func (p *responder) event(name string, fields map[string]any) {
	fields["type"] = name
	fields["sequence_number"] = p.seq
	p.seq++
	line := "event: " + name + "\ndata: " + mustJSON(fields) + "\n\n"
	if _, err := io.WriteString(p.w, line); err != nil {
		abort()
	}
	if err := http.NewResponseController(p.w).Flush(); err != nil {
		abort()
	}
}

func (p *responder) header(contentType string) { setHeaders(p.w, p.turn, contentType) }

// respItem is one Responses output item; pieces are its streamed deltas.
type respItem struct {
	Type   string
	ID     string
	CallID string
	Name   string
	pieces []string
}

func (it respItem) text() string { return strings.Join(it.pieces, "") }

// added is the item as output_item.added announces it: nothing generated yet.
func (it respItem) added() map[string]any {
	return it.wire("in_progress", "")
}

// MarshalJSON writes the item complete, as output_item.done and the final
// response list it.
func (it respItem) MarshalJSON() ([]byte, error) {
	return []byte(mustJSON(it.wire("completed", it.text()))), nil
}

func (it respItem) wire(status, text string) map[string]any {
	switch it.Type {
	case "reasoning":
		summary := []any{}
		if text != "" {
			summary = append(summary, map[string]any{"type": "summary_text", "text": text})
		}
		return map[string]any{"type": "reasoning", "id": it.ID, "summary": summary}
	case "message":
		content := []any{}
		if status == "completed" {
			content = append(content, map[string]any{"type": "output_text", "text": text, "annotations": []any{}})
		}
		return map[string]any{"type": "message", "id": it.ID, "status": status, "role": "assistant", "content": content}
	default:
		return map[string]any{"type": "function_call", "id": it.ID, "status": status,
			"call_id": it.CallID, "name": it.Name, "arguments": text}
	}
}

// responses is the usage object of a completed response.
func (u *Usage) responses() map[string]any {
	w := u.wire()
	return map[string]any{
		"input_tokens":          w.PromptTokens,
		"input_tokens_details":  map[string]int{"cached_tokens": w.PromptTokensDetails.CachedTokens},
		"output_tokens":         w.CompletionTokens,
		"output_tokens_details": map[string]int{"reasoning_tokens": w.CompletionTokensDetails.ReasoningTokens},
		"total_tokens":          w.TotalTokens,
	}
}
