// Package acp serves the Agent Client Protocol (version 1) over a byte stream, so
// editors such as Zed drive our agent: sessions, prompts, streamed updates,
// permission requests, profiles as modes and the model as a config option. It wraps
// github.com/coder/acp-go-sdk; no other package imports the SDK.
package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/agentenv"
)

// Options configure Serve.
type Options struct {
	// LoadEnv builds the agent's environment for a session's folder (an absolute
	// path the editor sends).
	LoadEnv func(cwd string) (*agentenv.Env, error)
	// Version is reported in agentInfo.
	Version string
	// Logger receives diagnostics; nil uses slog.Default. Never stdout: the stream
	// carries protocol messages only.
	Logger *slog.Logger
	// SetupCommand runs the setup in a terminal: the program's absolute path, then
	// its arguments (albert-acp --setup). Clients that use Zed's _meta
	// "terminal-auth" get it; without it they are offered the API key method only.
	SetupCommand []string
}

// Serve speaks ACP with the client whose messages arrive on in and whose end of the
// stream is out, until in ends or ctx is cancelled. Open sessions are closed on the
// way out.
func Serve(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	if o.LoadEnv == nil {
		return errors.New("acp: Options.LoadEnv is required")
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	g := newGuard(out)
	s := &server{opts: o, log: log, sessions: map[string]*session{}}
	g.answered = s.answered
	pr, pw := io.Pipe()
	s.conn = sdk.NewAgentSideConnection(s, g, pr)
	s.conn.SetLogger(log)
	go g.filter(in, pw)

	select {
	case <-s.conn.Done():
		// The client closed its end: the requests it sent before still get answers.
		g.drain(drainTimeout)
	case <-ctx.Done():
	}
	_ = pr.Close()
	s.closeAll()
	return ctx.Err()
}

// drainTimeout bounds the wait for answers once the client's stream has ended
// (a judgement: a prompt in flight is cancelled at once, the rest is quick).
const drainTimeout = 5 * time.Second

// server is the ACP agent: the SDK calls its methods, one goroutine per request.
type server struct {
	opts Options
	log  *slog.Logger
	conn *sdk.AgentSideConnection

	mu       sync.Mutex
	client   sdk.ClientCapabilities
	sessions map[string]*session
}

var _ sdk.Agent = (*server)(nil)
var _ sdk.AgentLoader = (*server)(nil)

// Initialize negotiates version 1 and says what we support.
func (s *server) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	s.mu.Lock()
	s.client = p.ClientCapabilities
	s.mu.Unlock()
	title := "Albert Code"
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentInfo:       &sdk.Implementation{Name: "albert-code", Title: &title, Version: s.opts.Version},
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:         true,
			PromptCapabilities:  sdk.PromptCapabilities{EmbeddedContext: true},
			McpCapabilities:     mcpCapabilities,
			SessionCapabilities: sdk.SessionCapabilities{List: &sdk.SessionListCapabilities{}, Close: &sdk.SessionCloseCapabilities{}},
		},
		AuthMethods: s.authMethods(p.ClientCapabilities),
	}, nil
}

// ResumeSession is not advertised; session/load does the same with a replay.
func (s *server) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionResume)
}

func (s *server) clientCaps() sdk.ClientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}

func (s *server) session(id sdk.SessionId) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss, ok := s.sessions[string(id)]; ok {
		return ss, nil
	}
	return nil, &sdk.RequestError{Code: -32002, Message: fmt.Sprintf("unknown session %q: create it with session/new or open it with session/load", id)}
}

func (s *server) closeAll() {
	s.mu.Lock()
	all := make([]*session, 0, len(s.sessions))
	for id, ss := range s.sessions {
		all = append(all, ss)
		delete(s.sessions, id)
	}
	s.mu.Unlock()
	for _, ss := range all {
		ss.close()
	}
}

// answered runs once the response to session/new or session/load is on the wire:
// the updates that must follow it (available commands, start-up warnings such as MCP
// servers that failed to start) go out now, and prompts may stream.
func (s *server) answered(method string, params, result json.RawMessage) {
	var ids struct {
		SessionID string `json:"sessionId"`
	}
	src := result
	if method == sdk.AgentMethodSessionLoad {
		src = params
	}
	if json.Unmarshal(src, &ids) != nil {
		return
	}
	s.mu.Lock()
	ss := s.sessions[ids.SessionID]
	s.mu.Unlock()
	if ss != nil {
		go ss.announce()
	}
}
