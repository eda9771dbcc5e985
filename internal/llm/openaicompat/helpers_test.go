package openaicompat

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// testTimeout bounds every call so a broken test fails instead of hanging.
const testTimeout = 10 * time.Second

// received is one request as the server saw it.
type received struct {
	header http.Header
	body   map[string]any
	path   string
}

// server is an httptest server on 127.0.0.1 that records requests and answers
// with handler.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []received
}

func newServer(t *testing.T, handler http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		s.mu.Lock()
		s.reqs = append(s.reqs, received{header: r.Header.Clone(), body: body, path: r.URL.Path})
		s.mu.Unlock()
		handler(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.reqs...)
}

func (s *server) provider(opts Options) *Provider {
	opts.BaseURL = s.URL + "/v1"
	return New(opts)
}

// sseHandler answers with the given data payloads as an SSE stream, written by
// hand: "data: <payload>\n\n", flushed one by one like a real server.
func sseHandler(payloads ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		for _, p := range payloads {
			writeEvent(w, p)
		}
	}
}

func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
}

func writeEvent(w http.ResponseWriter, payload string) {
	if strings.HasPrefix(payload, ":") {
		fmt.Fprintf(w, "%s\n\n", payload) // a comment line, as keep-alives are sent
	} else {
		fmt.Fprintf(w, "data: %s\n\n", payload)
	}
	w.(http.Flusher).Flush()
}

// js renders a Go value as JSON, for building chunks by hand.
func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// chunk is a chat.completion.chunk with one choice carrying delta (raw JSON) and
// an optional finish reason.
func chunk(delta string, finish string) string {
	fr := "null"
	if finish != "" {
		fr = js(finish)
	}
	return `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"served-model",` +
		`"choices":[{"index":0,"delta":` + delta + `,"logprobs":null,"finish_reason":` + fr + `}],"usage":null}`
}

func textChunk(s string) string { return chunk(`{"content":`+js(s)+`}`, "") }

func stopChunk(reason string) string { return chunk(`{}`, reason) }

func usageChunk(in, out, cached, reasoning int) string {
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"served-model","choices":[],`+
		`"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,`+
		`"prompt_tokens_details":{"cached_tokens":%d},"completion_tokens_details":{"reasoning_tokens":%d}}}`,
		in, out, in+out, cached, reasoning)
}

const done = "[DONE]"

// collect runs one call and returns what it emitted.
func collect(t *testing.T, p llm.Provider, req llm.Request) ([]llm.StreamEvent, *llm.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	var events []llm.StreamEvent
	resp, err := p.Stream(ctx, req, func(e llm.StreamEvent) { events = append(events, e) })
	return events, resp, err
}

// textOf concatenates the text deltas of events.
func textOf(events []llm.StreamEvent, kind llm.EventKind) string {
	var b strings.Builder
	for _, e := range events {
		if e.Kind == kind {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// argsByIndex concatenates the argument deltas of each call.
func argsByIndex(events []llm.StreamEvent) map[int]string {
	out := map[int]string{}
	for _, e := range events {
		if e.Kind == llm.EventToolCallDelta {
			out[e.Index] += e.Text
		}
	}
	return out
}

// fragments cuts s into pieces of at most n bytes.
func fragments(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}
