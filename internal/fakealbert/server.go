// Package fakealbert is a fake Albert API (OpenGateLLM) on loopback that enforces
// per-model rate limits and daily quotas with an injected clock and answers like
// the real one: FastAPI {"detail": ...} bodies, Albert's 429 texts, 503 "Model is
// too busy" with Retry-After, GET /v1/me/info and a paged GET /v1/me/usage. Chat
// completions stream over SSE with usage, from a Responder the test provides.
package fakealbert

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Clock is the fake's notion of now; tests share theirs with the client.
type Clock interface{ Now() time.Time }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// Limits are a model's caps as /v1/me/info states them; zero means unlimited.
type Limits struct{ RPM, RPD, TPM, TPD int }

// Model is one model the fake serves.
type Model struct {
	ID      string
	Aliases []string
	Limits  Limits
	// RouterID is the router /v1/me/info lists the limits under.
	RouterID int
	// MaxContextLength is what GET /v1/models states (OpenGateLLM's
	// max_context_length); omitted when zero.
	MaxContextLength int
}

// Options configure a fake.
type Options struct {
	Models []Model
	// APIKey is the only key accepted; empty accepts any bearer token.
	APIKey string
	// Clock is the real clock when nil.
	Clock Clock
	// Responder answers chat requests; nil answers "ok".
	Responder Responder
	// RetryAfter sets how 429s carry Retry-After: "" (none, body only),
	// "seconds" or "date" (an HTTP date).
	RetryAfter string
	// User is what /v1/me/info says about the key's owner.
	User User
}

// User is the account /v1/me/info describes.
type User struct {
	ID    int
	Name  string
	Email string
}

// Canned is a raw answer queued with Inject, for malformed and odd answers.
type Canned struct {
	Status  int
	Body    string
	Headers map[string]string
}

// Stats count what the fake answered.
type Stats struct {
	Served, TooMany, Busy, Canned int
}

// Server is a running fake Albert.
type Server struct {
	opts Options
	srv  *http.Server
	ln   net.Listener
	wg   sync.WaitGroup

	mu       sync.Mutex
	requests map[string][]event // canonical model → accepted requests
	usage    []usageEvent
	injected []Canned
	busy     int
	busyWait int
	stats    Stats
}

// Start listens on 127.0.0.1 at a free port.
func Start(opts Options) (*Server, error) {
	if opts.Clock == nil {
		opts.Clock = systemClock{}
	}
	if opts.Responder == nil {
		opts.Responder = Reply("ok")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, ln: ln, requests: map[string][]event{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.auth(s.chat))
	mux.HandleFunc("GET /v1/models", s.auth(s.models))
	mux.HandleFunc("GET /v1/me/info", s.auth(s.info))
	mux.HandleFunc("GET /v1/me/usage", s.auth(s.meUsage))
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// URL is the API base, ending in /v1.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/v1" }

// Close stops the server and waits for its handlers.
func (s *Server) Close() error {
	err := s.srv.Close()
	s.wg.Wait()
	return err
}

// Inject queues raw answers for the next chat requests, before any limit check.
func (s *Server) Inject(answers ...Canned) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.injected = append(s.injected, answers...)
}

// Busy makes the next n chat requests fail with Albert's 503 and Retry-After
// seconds.
func (s *Server) Busy(n, retryAfterSeconds int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.busy, s.busyWait = n, retryAfterSeconds
}

// Stats returns the counters so far.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

func (s *Server) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || key == "" || (s.opts.APIKey != "" && key != s.opts.APIKey) {
			detail(w, http.StatusUnauthorized, "Invalid API key.", nil)
			return
		}
		h(w, r)
	}
}

// model resolves an id or alias, case-insensitively as Albert does.
func (s *Server) model(name string) (Model, bool) {
	for _, m := range s.opts.Models {
		if strings.EqualFold(m.ID, name) {
			return m, true
		}
		for _, a := range m.Aliases {
			if strings.EqualFold(a, name) {
				return m, true
			}
		}
	}
	return Model{}, false
}

func (s *Server) models(w http.ResponseWriter, _ *http.Request) {
	type item struct {
		Object  string   `json:"object"`
		ID      string   `json:"id"`
		Type    string   `json:"type"`
		Aliases []string `json:"aliases"`
		OwnedBy string   `json:"owned_by"`
		Created int64    `json:"created"`
		// Albert's (OpenGateLLM's) window; omitted when the test gives none.
		MaxContextLength int `json:"max_context_length,omitempty"`
	}
	out := struct {
		Object string `json:"object"`
		Data   []item `json:"data"`
	}{Object: "list", Data: []item{}}
	for _, m := range s.opts.Models {
		out.Data = append(out.Data, item{Object: "model", ID: m.ID, Type: "text-generation", Aliases: m.Aliases, OwnedBy: "albert",
			Created: s.opts.Clock.Now().Unix(), MaxContextLength: m.MaxContextLength})
	}
	writeJSON(w, http.StatusOK, out)
}

// detail writes a FastAPI error body.
func detail(w http.ResponseWriter, status int, msg any, headers map[string]string) {
	for k, v := range headers {
		w.Header().Set(k, v)
	}
	writeJSON(w, status, map[string]any{"detail": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
