// Package api is the serve layer's HTTP API: runs (sync and async, with structured
// output), their results and cancellation, the workspace files, health, status,
// Prometheus metrics and the OpenAPI document that describes it all. Every run goes
// through the run store and the workspace locks.
package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	prom "github.com/etalab-ia/albert-code/internal/serve/metrics"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// DefaultMaxBody bounds a request body; judgement: a prompt with a few files pasted
// in is well under a megabyte, and ten leave room for a large file sent to /files.
const DefaultMaxBody = 10 << 20

// defaultCancelWait is how long DELETE /run/{id} waits for the run's processes to be
// gone: the supervisor's 5 s grace between SIGTERM and SIGKILL, and room to spare.
const defaultCancelWait = 30 * time.Second

// Options configure a Server. Backend, Store and Root are required.
type Options struct {
	// Backend runs the agent: a CLI adapter, or the native backend.
	Backend backend.Backend
	// Runner runs each attempt; nil means one with the runner's defaults.
	Runner *runner.Runner
	Store  runstore.Store
	// Locks make runs on one workspace wait their turn; nil means the default bound.
	Locks *workspace.Locks
	Root  *workspace.Root
	// Tokens are the accepted bearer tokens; none means no authentication.
	Tokens []string
	// MaxBody bounds request bodies (0: DefaultMaxBody); past it the answer is 413.
	MaxBody int64
	// TempParent holds the ephemeral workspaces of structured runs that name none;
	// empty means the system's temp folder.
	TempParent string
	// CancelWait bounds how long DELETE /run/{id} waits for the run to be gone.
	CancelWait time.Duration
	Logger     *slog.Logger
}

// Server serves the API. Its runs belong to it: Shutdown cancels them and waits.
type Server struct {
	opts    Options
	auth    *bearer
	metrics *metrics

	// base is the parent of every run's context; Shutdown cancels it.
	base     context.Context
	stopRuns context.CancelCauseFunc
	wg       sync.WaitGroup

	mu     sync.Mutex
	active map[string]*activeRun
	closed bool
}

// errShutdown is the cause of runs cancelled by Shutdown.
var errShutdown = errors.New("the server is shutting down")

// New returns a Server.
func New(opts Options) (*Server, error) {
	switch {
	case opts.Backend == nil:
		return nil, errors.New("api: no backend")
	case opts.Store == nil:
		return nil, errors.New("api: no run store")
	case opts.Root == nil:
		return nil, errors.New("api: no workspace root")
	}
	if opts.Runner == nil {
		opts.Runner = runner.New(runner.Options{})
	}
	if opts.Locks == nil {
		opts.Locks = workspace.NewLocks(workspace.DefaultMaxWaiters)
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.CancelWait <= 0 {
		opts.CancelWait = defaultCancelWait
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{opts: opts, auth: newBearer(opts.Tokens), active: map[string]*activeRun{}}
	s.base, s.stopRuns = context.WithCancelCause(context.Background())
	s.metrics = newMetrics(s)
	return s, nil
}

// route is one endpoint of the API.
type route struct {
	pattern string // a ServeMux pattern with its method
	public  bool   // served without a token
	handler http.HandlerFunc
}

func (s *Server) routes() []route {
	return []route{
		{pattern: "GET /healthz", public: true, handler: s.healthz},
		{pattern: "GET /openapi.json", public: true, handler: s.openapi},
		{pattern: "GET /status", handler: s.status},
		{pattern: "GET /metrics", handler: s.metrics.serve},
		{pattern: "POST /run", handler: s.postRun},
		{pattern: "GET /run/result", handler: s.getResult},
		{pattern: "DELETE /run/{id}", handler: s.deleteRun},
		{pattern: "GET /files", handler: s.getFile},
		{pattern: "GET /files/{path...}", handler: s.getFile},
		{pattern: "PUT /files/{path...}", handler: s.putFile},
		{pattern: "DELETE /files/{path...}", handler: s.deleteFile},
	}
}

// Register adds the API's routes to mux.
func (s *Server) Register(mux *http.ServeMux) {
	for _, r := range s.routes() {
		var h http.Handler = r.handler
		if !r.public {
			h = s.Authorize(h)
		}
		mux.Handle(r.pattern, s.metrics.instrument(r.pattern, h))
	}
}

// Authorize lets through requests that carry one of the API's bearer tokens and
// answers the others 401. Other surfaces mounted on the API's port (the OpenAI
// endpoint) use it for the same tokens.
func (s *Server) Authorize(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg, ok := s.auth.check(r); !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="albert-code", error="invalid_token"`)
			writeError(w, http.StatusUnauthorized, msg)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// CancelHandler is DELETE /run/{id} without the bearer check, for a surface that
// authenticates its users itself (the web console): it reads the id from the
// request's path value "id".
func (s *Server) CancelHandler() http.Handler { return http.HandlerFunc(s.deleteRun) }

// Registry is the Prometheus registry behind /metrics, where mounted surfaces may
// add their own metrics.
func (s *Server) Registry() *prom.Registry { return s.metrics.reg }

// Locks are the workspace locks every run takes, for mounted surfaces to share.
func (s *Server) Locks() *workspace.Locks { return s.opts.Locks }

// Shutdown cancels every run, queued or running, and waits until each has ended and
// its processes are gone, or ctx ends. New runs are refused from then on.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.stopRuns(errShutdown)
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
