// Package mcp is the agent's MCP client: it starts the servers of [mcp_servers] once
// for a session (stdio child processes or Streamable HTTP endpoints), lists their
// tools and offers each to the model as an ordinary tool named <server>_<tool>, so
// the agent loop never knows the difference. A server that fails to start is
// reported and left out; one whose connection breaks is reconnected on the next call.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/sandbox"
)

// Server is the connection to one configured MCP server. It is safe for concurrent
// use: calls share one session.
type Server struct {
	cfg    config.MCPServer
	client *sdk.Client
	// newTransport makes a transport for each (re)connection.
	newTransport func() sdk.Transport
	stdio        *stdioTransport  // nil for HTTP
	http         *headerTransport // nil for stdio

	// closing tracks the sessions dropped after a failure while they shut down.
	closing sync.WaitGroup
	// progress maps the progress token of each call in flight to its Progress func.
	progress  sync.Map
	nextToken atomic.Int64
	// sampling finds who answers the server's sampling requests (nil: nobody);
	// samplingGranted is set once the user allowed them for the session.
	sampling        func() *SamplingHost
	samplingGranted atomic.Bool

	mu      sync.Mutex
	session *sdk.ClientSession
	ended   chan struct{} // closed when session's connection ends
	closed  bool
}

// Options are what every server of a session shares.
type Options struct {
	// WorkDir is where stdio servers run when their cwd is not set.
	WorkDir string
	// LookupEnv reads the variables bearer tokens are taken from; nil reads the
	// process's.
	LookupEnv func(string) (string, bool)
	// Version is the client version sent in the handshake.
	Version string
	// ShutdownGrace is how long a stdio server may take to exit after its stdin is
	// closed, then after SIGTERM; zero means 2 s (judgement: node servers exit in
	// well under a second).
	ShutdownGrace time.Duration
	// HTTPClient is the base client of HTTP servers; nil uses a plain one.
	HTTPClient *http.Client
	// Reserved are tool names already taken (the built-in tools): a server tool
	// whose name would clash gets a hashed suffix instead.
	Reserved map[string]bool
	// Sandbox starts stdio servers: their environment scrubbed, their tree tied to
	// the agent, and confined as the server's sandbox setting says.
	Sandbox *sandbox.Sandbox
	// Sampling returns who answers a server's sampling requests now: the current
	// run's model and approver, or nil between runs. Nil declares no sampling
	// capability at all; so does a server whose sampling is "deny".
	Sampling func() *SamplingHost
}

const defaultShutdownGrace = 2 * time.Second

// NewServer prepares the connection to cfg without starting anything.
func NewServer(cfg config.MCPServer, o Options) *Server {
	s := &Server{cfg: cfg}
	copts := &sdk.ClientOptions{
		// No roots or elicitation: the agent serves neither.
		Capabilities:                &sdk.ClientCapabilities{},
		ProgressNotificationHandler: s.onProgress,
	}
	if samplingEnabled(cfg, o) {
		s.sampling = o.Sampling
		//lint:ignore SA1019 deprecated by MCP 2026-07-28 but kept for a year, and servers still ask (see sampling.go)
		copts.CreateMessageHandler = s.createMessage
	}
	s.client = sdk.NewClient(&sdk.Implementation{Name: "albert-code", Version: o.Version}, copts)
	grace := o.ShutdownGrace
	if grace <= 0 {
		grace = defaultShutdownGrace
	}
	if cfg.IsHTTP() {
		hc := o.HTTPClient
		if hc == nil {
			hc = &http.Client{}
		}
		headers := httpHeaders(cfg, o.LookupEnv)
		client := *hc
		s.http = &headerTransport{base: hc.Transport, headers: headers}
		client.Transport = s.http
		s.newTransport = func() sdk.Transport {
			if cfg.SSE {
				return &sseTransport{sdk.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: &client}}
			}
			return &sdk.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: &client, DisableStandaloneSSE: true}
		}
		return s
	}
	dir := cfg.Cwd
	if dir == "" || !filepath.IsAbs(dir) && o.WorkDir != "" {
		dir = filepath.Join(o.WorkDir, dir)
	}
	env := os.Environ()
	for k, v := range cfg.Env {
		env = append(env, k+"="+v)
	}
	mode := sandbox.Mode(cfg.Sandbox)
	if mode == "" {
		mode = sandbox.Off
	}
	s.stdio = &stdioTransport{server: cfg.Name, command: cfg.Command, args: cfg.Args, env: env, dir: dir, grace: grace,
		sandbox: o.Sandbox, mode: mode, explicit: cfg.Env}
	s.newTransport = func() sdk.Transport { return s.stdio }
	return s
}

// Name is the server's configured name.
func (s *Server) Name() string { return s.cfg.Name }

// connect opens a session; s.mu is held.
func (s *Server) connect(ctx context.Context) error {
	if s.closed {
		return fmt.Errorf("MCP server %s: the session is over", s.cfg.Name)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.StartupTimeout)
	defer cancel()
	cs, err := s.client.Connect(ctx, s.newTransport(), nil)
	if err != nil {
		return s.explain("start", err, ctx, s.cfg.StartupTimeout)
	}
	ended := make(chan struct{})
	go func() {
		_ = cs.Wait()
		close(ended)
	}()
	s.session, s.ended = cs, ended
	return nil
}

// live returns a session, reconnecting when the last one ended.
func (s *Server) live(ctx context.Context) (*sdk.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session != nil {
		select {
		case <-s.ended:
			slog.Info("MCP server connection ended; reconnecting", "server", s.cfg.Name, "cause", s.failure())
			s.dropLocked()
		default:
			return s.session, nil
		}
	}
	if err := s.connect(ctx); err != nil {
		return nil, err
	}
	return s.session, nil
}

// drop forgets cs if it is still the current session, so the next call reconnects.
func (s *Server) drop(cs *sdk.ClientSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session == cs {
		s.dropLocked()
	}
}

func (s *Server) dropLocked() {
	cs := s.session
	s.session, s.ended = nil, nil
	// Closing waits for a stdio server to exit: not on the caller's clock.
	s.closing.Go(func() { _ = cs.Close() })
}

// Close ends the session and stops a stdio server. Later calls fail.
func (s *Server) Close() error {
	s.mu.Lock()
	cs := s.session
	s.session, s.closed = nil, true
	s.mu.Unlock()
	defer s.closing.Wait()
	if cs == nil {
		return nil
	}
	return cs.Close()
}

// failure is what broke the stdio connection, if known.
func (s *Server) failure() error {
	if s.stdio == nil {
		return nil
	}
	return s.stdio.lastFailure()
}

// explain turns an SDK error into one that names the server and says what happened:
// the stdio failure when there is one (garbage on stdout, an exit), else the timeout
// when ctx ran out, else err itself.
func (s *Server) explain(op string, err error, ctx context.Context, timeout time.Duration) error {
	if cause := s.failure(); cause != nil {
		return fmt.Errorf("MCP server %s: %s: %w", s.cfg.Name, op, cause)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("MCP server %s: %s: no answer within %s (raise %s if it is only slow)", s.cfg.Name, op, timeout, timeoutKey(op))
	}
	return fmt.Errorf("MCP server %s: %s: %w", s.cfg.Name, op, err)
}

func timeoutKey(op string) string {
	if op == "start" {
		return "startup_timeout"
	}
	return "tool_timeout"
}
