package openai

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// answer is the identity every envelope of one response shares.
type answer struct {
	id      string
	created int64
	model   string
	// outputError is a CLI agent's unreadable output, sent with the answer's end.
	outputError string
}

func (a *answer) completion(msg message, finish string, u usage) completion {
	msg.Role = "assistant"
	return completion{ID: a.id, Object: "chat.completion", Created: a.created, Model: a.model,
		Choices: []completionChoice{{Message: msg, FinishReason: finish}}, Usage: u, OutputError: a.outputError}
}

// stream writes one answer as server-sent events: data: lines of chunks, then
// data: [DONE]. Nothing is written before the first chunk, so an error that comes
// first is still an ordinary HTTP error; once a byte is out, errors go in the
// stream (a data: line holding {"error": ...}, which the OpenAI SDKs raise).
//
// Lines are flushed by a goroutine of the stream's own, woken after each line: it
// runs once the producer waits for the model, so the deltas that arrived together
// leave in one write instead of one system call each, and none waits longer than
// the producer takes to reach its next read. The creator calls close before the
// handler returns.
type stream struct {
	w            http.ResponseWriter
	rc           *http.ResponseController
	a            *answer
	includeUsage bool
	started      bool
	// broken is set by a failed write: the client is gone, and nothing more is sent.
	broken atomic.Bool
	// buf is reused for each data: line.
	buf []byte

	mu    sync.Mutex // the ResponseWriter: writes and flushes
	dirty bool       // written since the last flush
	wake  chan struct{}
	done  chan struct{}
}

func newStream(w http.ResponseWriter, a *answer, includeUsage bool) *stream {
	return &stream{w: w, rc: http.NewResponseController(w), a: a, includeUsage: includeUsage}
}

// start sends the headers and the first chunk, which carries the role. Both are
// held back until the chunk that follows (start is always followed by one), so
// they leave in the same write.
func (s *stream) start() {
	if s.started {
		return
	}
	s.started = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // nginx would otherwise hold the events back
	s.w.WriteHeader(http.StatusOK)
	s.put(s.encode(delta{Role: "assistant", Content: ptr("")}, nil))
}

// open sends the headers, the role chunk and an SSE comment at once, for an agent
// that prints nothing until its answer is whole (codex): the client sees the
// stream alive instead of timing out. Errors then go in the stream.
func (s *stream) open() {
	s.start()
	s.mu.Lock()
	_, err := io.WriteString(s.w, ": the agent is working\n\n") // a comment: clients skip it
	s.dirty = true
	s.mu.Unlock()
	if err != nil {
		s.broken.Store(true)
	}
	s.flush()
}

func (s *stream) text(t string) {
	s.start()
	s.chunk(delta{Content: &t}, nil)
}

func (s *stream) reasoning(t string) {
	s.start()
	s.chunk(delta{ReasoningContent: t}, nil)
}

// toolCallStart opens call index: its id, type and name, and empty arguments.
func (s *stream) toolCallStart(index int, id, name string) {
	s.start()
	s.chunk(delta{ToolCalls: []toolCall{{Index: &index, ID: id, Type: "function", Function: functionCall{Name: name}}}}, nil)
}

// toolCallArguments sends a fragment of call index's arguments.
func (s *stream) toolCallArguments(index int, fragment string) {
	s.start()
	s.chunk(delta{ToolCalls: []toolCall{{Index: &index, Function: functionCall{Arguments: fragment}}}}, nil)
}

// finish sends the finish reason, the usage when asked for, and [DONE], in one
// write.
func (s *stream) finish(reason string, u usage) {
	s.start()
	last := s.chunkOf(delta{}, &reason)
	last.OutputError = s.a.outputError
	s.put(s.marshal(last))
	if s.includeUsage {
		s.put(s.marshal(chunk{ID: s.a.id, Object: "chat.completion.chunk", Created: s.a.created, Model: s.a.model,
			Choices: []chunkChoice{}, Usage: &nullUsage{&u}}))
	}
	s.line([]byte("[DONE]"))
	s.close()
}

// fail ends a started stream with an error object and no [DONE]: the answer is
// incomplete, and a client must not take it for a whole one.
func (s *stream) fail(e *apiError) {
	body, _ := json.Marshal(struct {
		Error *apiError `json:"error"`
	}{e})
	s.line(body)
	s.close()
}

func (s *stream) chunk(d delta, finish *string) {
	s.line(s.encode(d, finish))
}

// encode is the JSON of a chunk holding d; nil when it cannot be encoded, which
// breaks the stream.
func (s *stream) encode(d delta, finish *string) []byte {
	return s.marshal(s.chunkOf(d, finish))
}

func (s *stream) chunkOf(d delta, finish *string) chunk {
	c := chunk{ID: s.a.id, Object: "chat.completion.chunk", Created: s.a.created, Model: s.a.model,
		Choices: []chunkChoice{{Delta: d, FinishReason: finish}}}
	if s.includeUsage {
		c.Usage = &nullUsage{}
	}
	return c
}

func (s *stream) marshal(c chunk) []byte {
	body, err := json.Marshal(c)
	if err != nil {
		s.broken.Store(true)
		return nil
	}
	return body
}

// line sends a data: line, with whatever put held back, and has it flushed soon.
func (s *stream) line(data []byte) {
	s.put(data)
	if s.broken.Load() {
		return
	}
	if s.wake == nil {
		s.wake, s.done = make(chan struct{}, 1), make(chan struct{})
		go s.flushLoop()
	}
	select {
	case s.wake <- struct{}{}:
	default: // a flush is already due; it will take this line too
	}
}

// put writes a data: line without flushing it.
func (s *stream) put(data []byte) {
	if s.broken.Load() {
		return
	}
	s.buf = append(s.buf[:0], "data: "...)
	s.buf = append(s.buf, data...)
	s.buf = append(s.buf, "\n\n"...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.w.Write(s.buf); err != nil {
		s.broken.Store(true)
	}
	s.dirty = true
}

func (s *stream) flushLoop() {
	defer close(s.done)
	for range s.wake {
		s.flush()
	}
}

func (s *stream) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.dirty || s.broken.Load() {
		return
	}
	s.dirty = false
	if err := s.rc.Flush(); err != nil {
		s.broken.Store(true)
	}
}

// close stops the flushing goroutine and flushes what is left. It may be called more
// than once; the stream takes no line after it.
func (s *stream) close() {
	if s.wake != nil {
		close(s.wake)
		<-s.done
		s.wake = nil
	}
	s.flush()
}
