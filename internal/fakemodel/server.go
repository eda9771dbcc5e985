package fakemodel

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Server is a running fake model. It is safe for concurrent requests; each
// chat request consumes the next turn of its script.
type Server struct {
	script Script
	ln     net.Listener
	srv    *http.Server
	served chan error // Serve's result, read once by Close

	done      chan struct{} // closed by Close: releases hangs and delays
	closeOnce sync.Once
	closeErr  error

	mu       sync.Mutex
	closed   bool
	next     int // next turn to serve
	recorded []Recorded
	inflight sync.WaitGroup // handlers; Add only under mu while !closed
	active   atomic.Int32   // handlers running now, for tests
}

// Option configures Start.
type Option func(*options)

type options struct {
	addr string
}

// WithAddr listens on addr instead of 127.0.0.1:0 (a free port). The fake is
// meant for loopback use: it has no authentication.
func WithAddr(addr string) Option {
	return func(o *options) { o.addr = addr }
}

// Start validates script and serves it over HTTP until Close.
func Start(script Script, opts ...Option) (*Server, error) {
	o := options{addr: "127.0.0.1:0"}
	for _, opt := range opts {
		opt(&o)
	}
	if err := script.Validate(); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return nil, fmt.Errorf("fake model: listen on %s: %w", o.addr, err)
	}
	s := &Server{
		script: script,
		ln:     ln,
		served: make(chan error, 1),
		done:   make(chan struct{}),
	}
	// ReadHeaderTimeout: judgement, generous for loopback, only guards
	// against a test client that opens a socket and never speaks.
	s.srv = &http.Server{Handler: http.HandlerFunc(s.route), ReadHeaderTimeout: 10 * time.Second}
	go func() { s.served <- s.srv.Serve(ln) }()
	return s, nil
}

// URL is the OpenAI base URL, ending in /v1 (http://127.0.0.1:PORT/v1).
func (s *Server) URL() string {
	return "http://" + s.ln.Addr().String() + "/v1"
}

// Requests returns every request received so far, in arrival order.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.recorded...)
}

// ModelRequests are the recorded model calls alone (POSTs to chat completions,
// Messages or Responses): an agent also lists the server's models in the
// background, at a moment a test cannot predict.
func (s *Server) ModelRequests() []Recorded {
	var out []Recorded
	for _, r := range s.Requests() {
		if r.Method == http.MethodPost && isModelPath(r.Path) {
			out = append(out, r)
		}
	}
	return out
}

func isModelPath(p string) bool {
	p = strings.TrimPrefix(p, "/v1")
	return p == "/chat/completions" || p == "/responses" || p == "/messages"
}

// Close releases hanging and delayed answers, closes every connection and waits
// for all handlers to return. It is idempotent.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.done)
		err := s.srv.Close()
		s.inflight.Wait()
		if serr := <-s.served; !errors.Is(serr, http.ErrServerClosed) {
			err = errors.Join(err, serr)
		}
		if err != nil {
			s.closeErr = fmt.Errorf("fake model: close %s: %w", s.URL(), err)
		}
	})
	return s.closeErr
}

// enter registers a handler, or reports that the server is closing.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.inflight.Add(1)
	s.active.Add(1)
	return true
}

func (s *Server) leave() {
	s.active.Add(-1)
	s.inflight.Done()
}

// sleep waits d, or aborts the response if the client leaves or the server
// closes first: a half-written answer must look broken, not complete.
func (s *Server) sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		abort()
	case <-s.done:
		abort()
	}
}

// hang blocks until the client leaves or the server closes, then aborts.
func (s *Server) hang(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-s.done:
	}
	abort()
}

// abort ends the handler and closes the connection without completing the
// response; net/http recovers this panic value silently.
func abort() {
	panic(http.ErrAbortHandler)
}
