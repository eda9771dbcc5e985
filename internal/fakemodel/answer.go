package fakemodel

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// answerer writes one scripted turn; it lives for one request.
type answerer struct {
	s       *Server
	w       http.ResponseWriter
	r       *http.Request
	turn    Turn
	index   int
	req     chatRequest
	id      string
	model   string
	created int64
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, turnIndex int, req chatRequest) {
	a := &answerer{
		s: s, w: w, r: r,
		turn:    s.script.Turns[turnIndex],
		index:   turnIndex,
		req:     req,
		id:      fmt.Sprintf("chatcmpl-fake-%d", turnIndex),
		model:   req.Model,
		created: time.Now().Unix(),
	}
	if a.model == "" {
		a.model = s.script.models()[0].ID
	}
	switch {
	case a.turn.Error != nil:
		a.fail()
	case req.Stream:
		a.stream()
	default:
		a.complete()
	}
}

// header sets the defaults, then the turn's headers, so a script can override
// even Content-Type to test a client's handling of a wrong one.
func (a *answerer) header(contentType string) { setHeaders(a.w, a.turn, contentType) }

// setHeaders sets contentType, then t's own headers over it: the one header rule
// of every wire.
func setHeaders(w http.ResponseWriter, t Turn, contentType string) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	for k, v := range t.Headers {
		h.Set(k, v)
	}
}

// cutShort hangs or drops the answer where t says, once its content is out: the
// same point in every wire, before the end of the answer.
func (s *Server) cutShort(ctx context.Context, t Turn) {
	switch {
	case t.Hang:
		s.hang(ctx)
	case t.Drop:
		abort()
	}
}

func (a *answerer) fail() {
	a.header("application/json")
	a.s.sleep(a.r.Context(), a.turn.FirstByteDelay)
	a.w.WriteHeader(a.turn.Error.Status)
	_, _ = io.WriteString(a.w, a.turn.Error.Body)
}

// complete writes a non-streamed chat.completion after the turn's whole Delay.
func (a *answerer) complete() {
	a.header("application/json")
	a.s.sleep(a.r.Context(), a.turn.Delay())
	a.s.cutShort(a.r.Context(), a.turn)
	msg := message{Role: "assistant"}
	if len(a.turn.Text) > 0 {
		text := strings.Join(a.turn.Text, "")
		msg.Content = &text
	}
	if len(a.turn.Reasoning) > 0 {
		reasoning := strings.Join(a.turn.Reasoning, "")
		msg.ReasoningContent = &reasoning
	}
	for i, c := range a.turn.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, wireToolCall{
			ID: c.id(a.index, i), Type: "function",
			Function: wireFunction{Name: c.Name, Arguments: c.Arguments},
		})
	}
	writeJSON(a.w, http.StatusOK, completion{
		ID: a.id, Object: "chat.completion", Created: a.created, Model: a.model,
		SystemFingerprint: "fakemodel",
		Choices: []completionChoice{{
			Index: 0, Message: msg, FinishReason: a.turn.finishReason(),
		}},
		Usage: a.turn.Usage.wire(),
	})
}

// stream writes the turn as server-sent events: a role chunk, one chunk per
// scripted delta, a finish chunk, the usage chunk if asked, then [DONE].
func (a *answerer) stream() {
	a.header("text/event-stream; charset=utf-8")
	a.w.Header().Set("Cache-Control", "no-cache")
	ctx := a.r.Context()
	a.s.sleep(ctx, a.turn.FirstByteDelay)
	a.w.WriteHeader(http.StatusOK)

	empty := ""
	a.send(a.chunk(chunkChoice{Delta: delta{Role: "assistant", Content: &empty}}))
	for _, d := range a.turn.deltas(a.index) {
		a.s.sleep(ctx, a.turn.ChunkDelay)
		a.send(a.chunk(chunkChoice{Delta: d}))
	}
	a.s.cutShort(ctx, a.turn)
	finish := a.turn.finishReason()
	a.send(a.chunk(chunkChoice{Delta: delta{}, FinishReason: &finish}))
	if a.req.includeUsage() {
		c := a.chunk()
		c.Usage.u = new(a.turn.Usage.wire())
		a.send(c)
	}
	a.sendLine("data: [DONE]\n\n")
}

// chunk builds a chat.completion.chunk with the stream's shared id and model;
// with no choices it is the usage chunk, whose choices are [] not null.
func (a *answerer) chunk(choices ...chunkChoice) chunk {
	c := chunk{
		ID: a.id, Object: "chat.completion.chunk", Created: a.created, Model: a.model,
		SystemFingerprint: "fakemodel",
		Choices:           append([]chunkChoice{}, choices...),
	}
	if a.req.includeUsage() {
		c.Usage = &nullableUsage{}
	}
	return c
}

func (a *answerer) send(c chunk) {
	a.sendLine("data: " + mustJSON(c) + "\n\n")
}

// sendLine writes and flushes one SSE event; a client that went away ends the
// handler, as a real server would stop generating.
func (a *answerer) sendLine(line string) {
	if _, err := io.WriteString(a.w, line); err != nil {
		abort()
	}
	if err := http.NewResponseController(a.w).Flush(); err != nil {
		abort()
	}
}
