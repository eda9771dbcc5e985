package acp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/chat"
	store "github.com/etalab-ia/albert-code/internal/session"
	"github.com/etalab-ia/albert-code/internal/slash"
)

// session is one ACP session: a chat session and what the client was told of it.
type session struct {
	id   string
	cwd  string
	srv  *server
	chat *chat.Session
	// env is closed with the session: it stops the configured MCP servers and the
	// editor's. A reload replaces it, under mu.
	env *agentenv.Env
	// mcp are the editor's MCP servers, started again by a reload.
	mcp []sdk.McpServer

	// pending are messages for the user that must wait for the session's id to be
	// on the wire (MCP servers that failed to start); announced sends them once.
	pending []string
	// commands are the shared slash commands and the session's skills.
	commands  *slash.Registry
	announced sync.Once

	// terminals maps a bash call's id to the editor terminal it runs in, so its
	// final update keeps showing the terminal.
	terminals sync.Map

	mu    sync.Mutex
	title string
}

// NewSession opens a new conversation in the editor's folder.
func (s *server) NewSession(ctx context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	ss, err := s.open(ctx, p.Cwd, "", p.McpServers)
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	modes, opts, err := ss.state()
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(ss.id), Modes: modes, ConfigOptions: opts, Models: ss.modelState()}, nil
}

// LoadSession reopens a saved conversation and replays it as updates before
// answering, as the protocol asks.
func (s *server) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	s.mu.Lock()
	ss := s.sessions[string(p.SessionId)]
	s.mu.Unlock()
	if ss == nil {
		var err error
		if ss, err = s.open(ctx, p.Cwd, string(p.SessionId), p.McpServers); err != nil {
			return sdk.LoadSessionResponse{}, err
		}
	}
	ss.replay(ctx)
	// The session goes on with its own profile and model: say so after the history,
	// for clients that follow updates rather than the response.
	ss.send(ctx, sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: sdk.SessionModeId(ss.chat.Profile())}})
	ss.sendConfigOptions(ctx)
	modes, opts, err := ss.state()
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	return sdk.LoadSessionResponse{Modes: modes, ConfigOptions: opts, Models: ss.modelState()}, nil
}

// open builds a chat session for cwd: a new one, or the saved one called resume.
func (s *server) open(ctx context.Context, cwd, resume string, mcp []sdk.McpServer) (*session, error) {
	if !filepath.IsAbs(cwd) {
		return nil, invalidParams("cwd %q is not an absolute path; send the workspace folder's absolute path", cwd)
	}
	if st, err := os.Stat(cwd); err != nil || !st.IsDir() {
		return nil, invalidParams("cwd %q is not a folder on this machine", cwd)
	}
	env, err := s.opts.LoadEnv(cwd)
	if err != nil {
		return nil, openError(err)
	}
	var restored []string
	if resume != "" {
		env, restored = withSavedSettings(env, resume)
	}
	env, notices := withEditorMCP(env, mcp)
	for _, w := range restored {
		notices = append(notices, "Warning: "+w)
	}
	ss := &session{cwd: cwd, srv: s, env: env, mcp: mcp, pending: notices}
	c, err := chat.Open(env, chat.Options{Resume: resume, Approver: approver{ss}, ToolOverrides: append(ss.editorTools(s.clientCaps()), ss.askTool())})
	if err != nil {
		env.Close()
		return nil, openError(err)
	}
	ss.chat = c
	ss.title = c.Title()
	ss.id = c.ID()
	if ss.id == "" { // sessions disabled: the id only has to be unique here
		ss.id = randomID()
	}
	for _, w := range c.Warnings() {
		ss.pending = append(ss.pending, "Warning: "+w)
	}
	// The shared commands, and the session's skills as /skill-name.
	ss.commands = slash.Default()
	for _, name := range ss.commands.AddSkills(c.Skills()) {
		ss.pending = append(ss.pending, fmt.Sprintf("Warning: the skill %q is named like a built-in command, so it is no /%s command; the agent can still load it.", name, name))
	}
	for _, m := range ss.pending {
		s.log.Warn("session start-up", "session", ss.id, "message", m)
	}
	// The daily quota, as every face shows it at start: "warning:" at 80 %,
	// "critical:" at 95 %, and a rate-limit state that had to be rebuilt.
	ss.pending = append(ss.pending, env.QuotaWarnings(ctx)...)
	s.mu.Lock()
	s.sessions[ss.id] = ss
	s.mu.Unlock()
	return ss, nil
}

// openError says what the editor's user must do; a missing key is auth_required.
func openError(err error) error {
	if ae := authRequired(err); ae != nil {
		return ae
	}
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrAmbiguous) {
		return &sdk.RequestError{Code: -32002, Message: err.Error()}
	}
	return &sdk.RequestError{Code: -32603, Message: err.Error()}
}

func invalidParams(format string, args ...any) error {
	return &sdk.RequestError{Code: -32602, Message: "Invalid params: " + fmt.Sprintf(format, args...)}
}

func randomID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// announce sends, once, what must follow the session's creation: the available
// commands and the pending messages. Prompt calls it too, so nothing of it can come
// after a prompt's own updates.
func (ss *session) announce() {
	ss.announced.Do(func() {
		ss.send(context.Background(), availableCommands(ss.commands))
		for _, m := range ss.pending {
			ss.send(context.Background(), sdk.UpdateAgentMessageText(m+"\n\n"))
		}
	})
}

// send delivers one update. It ignores ctx's cancellation: the last updates of a
// cancelled turn must still reach the client.
func (ss *session) send(ctx context.Context, u sdk.SessionUpdate) {
	err := ss.srv.conn.SessionUpdate(context.WithoutCancel(ctx), sdk.SessionNotification{SessionId: sdk.SessionId(ss.id), Update: u})
	if err != nil {
		ss.srv.log.Warn("send session/update", "session", ss.id, "err", err)
	}
}

// ListSessions lists the saved sessions of a folder, or of every folder.
func (s *server) ListSessions(_ context.Context, p sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	cwd := ""
	if p.Cwd != nil {
		cwd = *p.Cwd
	}
	dir := cwd
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return sdk.ListSessionsResponse{}, &sdk.RequestError{Code: -32603, Message: err.Error()}
		}
		dir = wd
	}
	env, err := s.opts.LoadEnv(dir)
	if err != nil {
		return sdk.ListSessionsResponse{}, openError(err)
	}
	resp := sdk.ListSessionsResponse{Sessions: []sdk.SessionInfo{}}
	if !env.Config.Session.Enabled {
		return resp, nil
	}
	metas, err := env.SessionStore().List(store.Filter{Cwd: cwd})
	var le *store.ListError
	if err != nil && !errors.As(err, &le) {
		return resp, &sdk.RequestError{Code: -32603, Message: err.Error()}
	}
	if le != nil {
		s.log.Warn("unreadable sessions skipped", "err", le)
	}
	for _, m := range metas {
		info := sdk.SessionInfo{SessionId: sdk.SessionId(m.ID), Cwd: m.Cwd}
		if m.Title != "" {
			info.Title = sdk.Ptr(m.Title)
		}
		if !m.UpdatedAt.IsZero() {
			info.UpdatedAt = sdk.Ptr(m.UpdatedAt.UTC().Format(time.RFC3339))
		}
		resp.Sessions = append(resp.Sessions, info)
	}
	return resp, nil
}

// CloseSession stops the session's prompt and frees it.
func (s *server) CloseSession(_ context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	s.mu.Lock()
	ss := s.sessions[string(p.SessionId)]
	delete(s.sessions, string(p.SessionId))
	s.mu.Unlock()
	if ss == nil {
		_, err := s.session(p.SessionId)
		return sdk.CloseSessionResponse{}, err
	}
	ss.close()
	return sdk.CloseSessionResponse{}, nil
}

// close ends the session's conversation, then stops its MCP servers.
func (ss *session) close() {
	ss.chat.Close()
	ss.mu.Lock()
	env := ss.env
	ss.mu.Unlock()
	env.Close()
}

// reload reads the configuration again and goes on with the conversation in it
// (/reload, /config set, /fallback), with the editor's MCP servers started anew.
func (ss *session) reload(ctx context.Context) error {
	env, err := ss.srv.opts.LoadEnv(ss.cwd)
	if err != nil {
		return openError(err)
	}
	env, notices := withEditorMCP(env, ss.mcp)
	if err := ss.chat.Reload(env); err != nil {
		env.Close()
		return err
	}
	ss.mu.Lock()
	old := ss.env
	ss.env = env
	ss.mu.Unlock()
	old.Close()
	for _, n := range notices {
		ss.send(ctx, sdk.UpdateAgentMessageText(n+"\n"))
	}
	ss.sendConfigOptions(ctx)
	ss.sendUsage(ctx)
	return nil
}
