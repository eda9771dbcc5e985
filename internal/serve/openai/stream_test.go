package openai

import (
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// flushCounter records what each flush sends. The stream flushes from its own
// goroutine, so the record is read under a lock.
type flushCounter struct {
	*httptest.ResponseRecorder
	mu      sync.Mutex
	flushed []string
	sent    int
}

func (f *flushCounter) Flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	body := f.Body.String()
	f.flushed = append(f.flushed, body[f.sent:])
	f.sent = len(body)
}

func (f *flushCounter) flushes() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.flushed)
}

func TestStreamSendsTheRoleWithTheFirstDeltaAndEverythingByTheEnd(t *testing.T) {
	t.Parallel()
	w := &flushCounter{ResponseRecorder: httptest.NewRecorder()}
	s := newStream(w, &answer{id: "chatcmpl-1", created: 1, model: "m"}, true)
	s.text("Hel")
	s.text("lo")
	s.finish("stop", usage{})
	flushed := w.flushes()
	if len(flushed) == 0 || len(flushed) > 3 {
		t.Fatalf("%d flushes, want one to three (role with the first delta, the second, the end): %q", len(flushed), flushed)
	}
	if first := flushed[0]; !strings.HasPrefix(first, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""}`) ||
		!strings.Contains(first, `"content":"Hel"`) {
		t.Errorf("first flush: %q, want the role chunk and the first delta", first)
	}
	all := strings.Join(flushed, "")
	if strings.Count(all, "data: ") != 6 || !strings.Contains(all, `"finish_reason":"stop"`) || !strings.HasSuffix(all, "data: [DONE]\n\n") {
		t.Errorf("sent %q, want role, two deltas, finish, usage and [DONE]", all)
	}
	if all != w.Body.String() {
		t.Errorf("written but never flushed: %q", w.Body.String()[len(all):])
	}
	if ct := w.Header().Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
}

// A delta leaves while the producer waits for the next one: the stream does not hold
// it until the end.
func TestStreamFlushesADeltaWhileTheProducerWaits(t *testing.T) {
	t.Parallel()
	w := &flushCounter{ResponseRecorder: httptest.NewRecorder()}
	s := newStream(w, &answer{id: "chatcmpl-1", created: 1, model: "m"}, false)
	defer s.close()
	s.text("Hel")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(strings.Join(w.flushes(), ""), `"content":"Hel"`) {
		if time.Now().After(deadline) {
			t.Fatal("the first delta was not flushed within 5 s")
		}
		time.Sleep(time.Millisecond)
	}
}

// A client gone mid-stream is noticed: the stream stops writing and says it is broken.
func TestStreamBreaksOnAFailedFlush(t *testing.T) {
	t.Parallel()
	w := &failingFlusher{ResponseRecorder: httptest.NewRecorder()}
	s := newStream(w, &answer{id: "chatcmpl-1", created: 1, model: "m"}, false)
	s.text("Hel")
	s.close()
	if !s.broken.Load() {
		t.Fatal("a failed flush did not break the stream")
	}
	n := w.Body.Len()
	s.text("lo")
	if w.Body.Len() != n {
		t.Error("a broken stream went on writing")
	}
}

type failingFlusher struct{ *httptest.ResponseRecorder }

func (f *failingFlusher) FlushError() error { return errors.New("connection reset") }
