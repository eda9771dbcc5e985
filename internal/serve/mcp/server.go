// Package mcp is the serve layer's MCP server: the agent and the workspace files as
// tools (run_prompt, list_files, read_file, write_file, delete_file) and the code
// graph (code_graph) over the Streamable HTTP transport, at /mcp on the API's port or on a port of its own. Its
// runs go through the API's runner, workspace locks and run store; it has its own
// tokens and refuses foreign Host and Origin headers (DNS rebinding).
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// Limits, by judgement. A read_file answer lands in a model's context: a megabyte
// is already more than most will take, and GET /files serves larger files. A session
// nobody has used for an hour belongs to a client that went away without DELETE.
const (
	DefaultMaxFile = 1 << 20
	sessionIdle    = time.Hour
)

// Runs runs a POST /run body in-process and answers as /run would; the API server
// (api.Server.RunJSON) is the one implementation.
type Runs interface {
	RunJSON(ctx context.Context, body []byte) (int, json.RawMessage)
}

// Options configure a Server. Runs and Root are required.
type Options struct {
	Runs Runs
	Root *workspace.Root
	// Tokens are the MCP server's own bearer tokens; none means no authentication.
	Tokens []string
	// AllowedHosts and AllowedOrigins are the DNS-rebinding allow-lists; empty means
	// loopback names on any port.
	AllowedHosts, AllowedOrigins []string
	// MaxBody bounds a request body (0: unbounded by us); past it the answer is 413.
	MaxBody int64
	// MaxFile bounds what read_file returns (0: DefaultMaxFile).
	MaxFile int64
	// MaxGraphs bounds the code_graph tools kept, one per workspace (0:
	// DefaultMaxGraphs).
	MaxGraphs int
	Version   string
	Logger    *slog.Logger
}

// Server is the MCP server; serve its Handler.
type Server struct {
	opts    Options
	handler http.Handler
	graphs  *graphCache
	// base is the parent of every request's context: Close cancels it, ending the
	// open streams so an HTTP shutdown need not wait for them.
	base  context.Context
	close context.CancelFunc
}

// New returns a Server.
func New(opts Options) (*Server, error) {
	switch {
	case opts.Runs == nil:
		return nil, errors.New("mcp: nothing to run prompts with")
	case opts.Root == nil:
		return nil, errors.New("mcp: no workspace root")
	}
	if opts.MaxFile <= 0 {
		opts.MaxFile = DefaultMaxFile
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{opts: opts, graphs: newGraphCache(opts.MaxGraphs, newGraphTool)}
	s.base, s.close = context.WithCancel(context.Background())
	srv := s.tools()
	h := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return srv }, &mcpsdk.StreamableHTTPOptions{
		Logger: opts.Logger, SessionTimeout: sessionIdle, MaxRequestBodyBytes: opts.MaxBody,
		// Our guard checks hosts against the configured list, which a proxy in
		// front of a loopback listener may extend.
		DisableLocalhostProtection: true,
	})
	s.handler = newGuard(opts.Tokens, opts.AllowedHosts, opts.AllowedOrigins).wrap(s.bound(h))
	return s, nil
}

// Handler serves the MCP endpoint; mount it at /mcp.
func (s *Server) Handler() http.Handler { return s.handler }

// Mount serves the MCP endpoint at /mcp on mux, next to the API, and at /mcp/ (the
// original's URL in API mode).
func (s *Server) Mount(mux *http.ServeMux) {
	mux.Handle("/mcp", s.handler)
	mux.Handle("/mcp/", s.handler)
}

// Close ends every open request; runs they started are cancelled as when a client
// hangs up.
func (s *Server) Close() { s.close() }

// bound ties each request's context to the server's.
func (s *Server) bound(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(s.base, cancel)
		defer stop()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func (s *Server) tools() *mcpsdk.Server {
	srv := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "albert-code", Version: s.opts.Version}, &mcpsdk.ServerOptions{
		Instructions: "A coding agent and its workspaces. run_prompt gives the agent a task in a workspace (a folder under the " +
			"workspace root) and returns its answer; the file tools read and change the files under the same root. Paths are " +
			"relative to the root: a workspace named project-a has its files under project-a/. code_graph answers structure " +
			"questions (callers, implementations, impact...) about a workspace's code.",
	})
	ro := &mcpsdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
	mcpsdk.AddTool(srv, &mcpsdk.Tool{Name: "run_prompt", Annotations: &mcpsdk.ToolAnnotations{OpenWorldHint: new(true)},
		Description: "Give the coding agent a task in a workspace and wait for its answer. It continues the workspace's last " +
			"session unless noContinue is set. With jsonSchema the answer is JSON checked against the schema (the agent gets up " +
			"to 3 corrections). Other requests are served while it runs; runs on one workspace wait their turn."},
		s.runPrompt)
	mcpsdk.AddTool(srv, &mcpsdk.Tool{Name: "list_files", Annotations: ro,
		Description: "List a folder under the workspace root: each entry's name, type (file, dir or link) and size."},
		s.listFiles)
	mcpsdk.AddTool(srv, &mcpsdk.Tool{Name: "read_file", Annotations: ro,
		Description: "Read a file under the workspace root as text (invalid UTF-8 is replaced, and binary says so)."},
		s.readFile)
	mcpsdk.AddTool(srv, &mcpsdk.Tool{Name: "write_file", Annotations: &mcpsdk.ToolAnnotations{IdempotentHint: true, DestructiveHint: new(true), OpenWorldHint: new(bool)},
		Description: "Write a file under the workspace root, replacing it whole and creating its folders. Readers never see half a file."},
		s.writeFile)
	mcpsdk.AddTool(srv, &mcpsdk.Tool{Name: "delete_file", Annotations: &mcpsdk.ToolAnnotations{IdempotentHint: true, DestructiveHint: new(true), OpenWorldHint: new(bool)},
		Description: "Delete a file or a link under the workspace root; folders are refused."},
		s.deleteFile)
	graph := newGraphTool(s.opts.Root.Dir()) // for its schema and description only
	mcpsdk.AddTool(srv, &mcpsdk.Tool{Name: agenttool.Name, InputSchema: graphSchema(graph.Info()),
		// Read-only for the sources; the index it refreshes is a cache.
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(bool)},
		Description: "Ask the code graph of a workspace (a folder under the workspace root, named as for run_prompt). " +
			graph.Info().Description},
		s.codeGraph)
	return srv
}
