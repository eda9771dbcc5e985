package openaicompat

import (
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// TestConnectionReuse checks that consecutive turns share one connection: the
// body is read to its end after [DONE], so net/http can pool the connection.
func TestConnectionReuse(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	conns := map[string]bool{}
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		conns[r.RemoteAddr] = true
		mu.Unlock()
		okStream(w, r)
	})
	p := s.provider(Options{})
	for range 3 {
		if _, _, err := collect(t, p, llm.Request{Model: "m"}); err != nil {
			t.Fatalf("Stream: %v", err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(conns) != 1 {
		t.Errorf("3 calls used %d connections, want 1", len(conns))
	}
}

// TestStreamLenientChunks checks that a field of an unexpected type costs only
// that field, and that an error event may be a bare string.
func TestStreamLenientChunks(t *testing.T) {
	t.Parallel()
	s := newServer(t, sseHandler(
		chunk(`{"content":"kept","tool_calls":"not a list"}`, ""),
		`{"choices":[{"index":0,"delta":{"content":" too"},"finish_reason":null,"logprobs":{"content":7}}],"usage":null,"error":null}`,
		stopChunk("stop"), done))
	_, resp, err := collect(t, s.provider(Options{}), llm.Request{Model: "m"})
	if err != nil || resp.Message.Content != "kept too" {
		t.Fatalf("Stream = %+v, %v; want content %q", resp, err, "kept too")
	}

	s = newServer(t, sseHandler(textChunk("partial"), `["not","a","chunk"]`))
	_, _, err = collect(t, s.provider(Options{}), llm.Request{Model: "m"})
	if err == nil || !strings.Contains(err.Error(), "read stream from") {
		t.Fatalf("err = %v, want a decoding error for an event that is not an object", err)
	}

	s = newServer(t, sseHandler(textChunk("partial"), `{"error":"out of memory"}`))
	_, _, err = collect(t, s.provider(Options{}), llm.Request{Model: "m"})
	if err == nil || !strings.Contains(err.Error(), "HTTP 500: out of memory") {
		t.Fatalf("err = %v, want an APIError 500 with the event's text", err)
	}
}

// TestTransportErrorNamesURLOnce checks the message of a refused connection: the
// endpoint once, then the cause.
func TestTransportErrorNamesURLOnce(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + l.Addr().String() + "/v1"
	_ = l.Close()
	_, _, err = collect(t, New(Options{BaseURL: base}), llm.Request{Model: "m"})
	if err == nil || strings.Count(err.Error(), base) != 1 {
		t.Errorf("err = %v; want the URL named once", err)
	}
}
