// Package providertest is a scripted HTTP server on 127.0.0.1 for the provider
// packages' tests: it records each request and answers with the next scripted
// answer, streaming SSE fixtures event by event as a real server flushes them.
// The fixtures, not this package, carry each provider's wire format.
package providertest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
)

// Answer is one scripted answer.
type Answer struct {
	// Status defaults to 200.
	Status int
	Header map[string]string
	// Body is sent as is; when it is empty, Fixture names a file whose content is
	// sent instead.
	Body    string
	Fixture string
	// ContentType defaults to text/event-stream for a 200 and application/json
	// otherwise.
	ContentType string
}

// SSE answers 200 with the SSE fixture at path.
func SSE(path string) Answer { return Answer{Fixture: path} }

// Error answers status with a JSON body and the given headers.
func Error(status int, body string, header map[string]string) Answer {
	return Answer{Status: status, Body: body, Header: header}
}

// Request is one request as the server received it.
type Request struct {
	Method string
	Path   string
	// Query is the raw query string.
	Query  string
	Header http.Header
	Raw    []byte
}

// JSON decodes the body into a generic value, failing t on bad JSON.
func (r Request) JSON(t testing.TB) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.Raw, &v); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, r.Raw)
	}
	return v
}

// Server is the scripted server.
type Server struct {
	*httptest.Server
	t       testing.TB
	mu      sync.Mutex
	answers []Answer
	reqs    []Request
}

// New starts a server that gives answers in order, then fails the test on any
// further request. It stops when the test ends.
func New(t testing.TB, answers ...Answer) *Server {
	t.Helper()
	s := &Server{t: t, answers: answers}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Raw: raw})
	n := len(s.reqs)
	var a Answer
	ok := n <= len(s.answers)
	if ok {
		a = s.answers[n-1]
	}
	s.mu.Unlock()
	if !ok {
		s.t.Errorf("unexpected request %d: %s %s", n, r.Method, r.URL)
		http.Error(w, "no scripted answer", http.StatusTeapot)
		return
	}
	body := []byte(a.Body)
	if len(body) == 0 && a.Fixture != "" {
		var err error
		if body, err = os.ReadFile(a.Fixture); err != nil {
			s.t.Errorf("read fixture: %v", err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	status := a.Status
	if status == 0 {
		status = http.StatusOK
	}
	ct := a.ContentType
	if ct == "" {
		ct = "application/json"
		if status == http.StatusOK {
			ct = "text/event-stream"
		}
	}
	w.Header().Set("Content-Type", ct)
	for k, v := range a.Header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(status)
	writeEvents(w, body)
}

// writeEvents sends body one SSE event (ending in a blank line) at a time, with a
// flush after each, so clients read a real stream rather than one buffer.
func writeEvents(w http.ResponseWriter, body []byte) {
	flusher, _ := w.(http.Flusher)
	for len(body) > 0 {
		i := bytes.Index(body, []byte("\n\n"))
		end := len(body)
		if i >= 0 {
			end = i + 2
		}
		_, _ = w.Write(body[:end])
		if flusher != nil {
			flusher.Flush()
		}
		body = body[end:]
	}
}
