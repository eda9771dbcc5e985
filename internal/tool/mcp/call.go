package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Start connects and lists the server's tools, within the startup timeout.
func (s *Server) Start(ctx context.Context) ([]*sdk.Tool, error) {
	cs, err := s.live(ctx)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.StartupTimeout)
	defer cancel()
	var tools []*sdk.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, s.explain("list tools", err, ctx, s.cfg.StartupTimeout)
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// ErrBroken marks a call during which the connection to the server broke: the
// server is reconnected on the next call, and the call may or may not have run.
var ErrBroken = errors.New("the connection to the MCP server broke")

// Call calls the server's tool name with args (a JSON object), within the tool
// timeout. A server that answers with a JSON-RPC error (an unknown tool, arguments it
// cannot parse) gives an error naming it; a tool that fails gives a result with
// IsError, for the model to read. progress, when not nil, receives the server's
// progress notifications as lines of text.
func (s *Server) Call(ctx context.Context, name string, args json.RawMessage, progress func(string)) (*sdk.CallToolResult, error) {
	cs, err := s.live(ctx)
	if err != nil {
		return nil, err
	}
	var token string
	if progress != nil {
		token = fmt.Sprintf("albert-code-%d", s.nextToken.Add(1))
		sink := &progressSink{f: progress}
		s.progress.Store(token, sink)
		defer sink.close()
		defer s.progress.Delete(token)
	}
	rejected := s.rejections()
	res, err := s.callOn(ctx, cs, name, args, token)
	if err == nil || ctx.Err() != nil {
		return res, err
	}
	if res, ok := unansweredSample(s.cfg.Name, name, err); ok {
		return res, nil
	}
	sessionGone := errors.Is(err, sdk.ErrSessionMissing) || s.rejections() > rejected
	var answered *jsonrpc.Error
	switch {
	case sessionGone:
	case errors.As(err, &answered):
		return nil, fmt.Errorf("MCP server %s refused the call to %s: %s", s.cfg.Name, name, answered.Message)
	case errors.Is(err, errCallTimeout):
		return nil, fmt.Errorf("MCP server %s: %s: no answer within %s (raise tool_timeout if it is only slow)", s.cfg.Name, name, s.cfg.ToolTimeout)
	}
	s.drop(cs)
	if sessionGone {
		// The server no longer knows the session (it restarted), so it refused the
		// call without running it: repeating it on a new session is safe.
		if cs, err = s.live(ctx); err != nil {
			return nil, err
		}
		if res, err = s.callOn(ctx, cs, name, args, token); err == nil {
			return res, nil
		}
		s.drop(cs)
	}
	cause := s.failure()
	if cause == nil {
		cause = err
	}
	return nil, fmt.Errorf("MCP server %s: %s: %w (%w; it will be restarted on the next call, and this call may or may not have run)", s.cfg.Name, name, cause, ErrBroken)
}

// rejections counts the requests an HTTP server refused for an unknown session.
func (s *Server) rejections() int64 {
	if s.http == nil {
		return 0
	}
	return s.http.rejections.Load()
}

func (s *Server) callOn(ctx context.Context, cs *sdk.ClientSession, name string, args json.RawMessage, token string) (*sdk.CallToolResult, error) {
	callCtx, cancel := context.WithTimeout(ctx, s.cfg.ToolTimeout)
	defer cancel()
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	if token != "" {
		params.SetProgressToken(token)
	}
	res, err := cs.CallTool(callCtx, params)
	if err != nil && ctx.Err() == nil && errors.Is(callCtx.Err(), context.DeadlineExceeded) {
		return nil, errCallTimeout
	}
	return res, err
}

// errCallTimeout marks a call that ran out of tool_timeout (the SDK has told the
// server to cancel it; the session stays up).
var errCallTimeout = errors.New("tool timeout")

// onProgress hands a progress notification to the call that asked for it.
func (s *Server) onProgress(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	p := req.Params
	token, _ := p.ProgressToken.(string)
	sink, ok := s.progress.Load(token)
	if !ok {
		return
	}
	line := fmt.Sprintf("progress %g", p.Progress)
	if p.Total > 0 {
		line = fmt.Sprintf("progress %g/%g", p.Progress, p.Total)
	}
	if p.Message != "" {
		line += ": " + p.Message
	}
	sink.(*progressSink).send(line + "\n")
}

// progressSink forwards a call's progress until the call returns: a notification
// the SDK delivers late must not reach the face after the call's result.
type progressSink struct {
	mu   sync.Mutex
	f    func(string)
	done bool
}

func (p *progressSink) send(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done {
		p.f(s)
	}
}

func (p *progressSink) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
}
