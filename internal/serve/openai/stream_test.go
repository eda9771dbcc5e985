package openai

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// flushCounter records what each flush sends.
type flushCounter struct {
	*httptest.ResponseRecorder
	flushed []string
	sent    int
}

func (f *flushCounter) Flush() {
	body := f.Body.String()
	f.flushed = append(f.flushed, body[f.sent:])
	f.sent = len(body)
}

func TestStreamSendsTheRoleWithTheFirstDeltaAndTheEndInOneFlush(t *testing.T) {
	t.Parallel()
	w := &flushCounter{ResponseRecorder: httptest.NewRecorder()}
	s := newStream(w, &answer{id: "chatcmpl-1", created: 1, model: "m"}, true)
	s.text("Hel")
	s.text("lo")
	s.finish("stop", usage{})
	if len(w.flushed) != 3 {
		t.Fatalf("%d flushes, want one per delta and one for the end: %q", len(w.flushed), w.flushed)
	}
	if first := w.flushed[0]; strings.Count(first, "data: ") != 2 || !strings.Contains(first, `"role":"assistant"`) || !strings.Contains(first, `"content":"Hel"`) {
		t.Errorf("first flush: %q, want the role chunk and the first delta", first)
	}
	if end := w.flushed[2]; strings.Count(end, "data: ") != 3 || !strings.Contains(end, `"finish_reason":"stop"`) || !strings.HasSuffix(end, "data: [DONE]\n\n") {
		t.Errorf("last flush: %q, want the finish, usage and [DONE] chunks", end)
	}
	if ct := w.Header().Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
}
