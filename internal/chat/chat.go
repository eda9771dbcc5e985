// Package chat is the conversation controller the interactive faces share (the
// terminal UI and the ACP server): one session with one agent at a time, prompts that
// never overlap, cancel, and switching profile or model without losing the history.
// It holds no agent logic of its own; agentenv builds every run.
package chat

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/session"
	"github.com/etalab-ia/albert-code/internal/tool"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

// Options shape how a Session starts and how it reaches the person in front of it.
type Options struct {
	// Continue opens the latest session of the folder; Resume the session with this
	// ID or unique prefix. Both empty start a new session.
	Continue bool
	Resume   string
	// Approver answers permission requests and Asker ask_user_question; nil denies
	// the calls the policy asks about and tells the model nobody can answer.
	Approver agent.Approver
	Asker    builtin.Asker
	// Limits bound every prompt (0: none).
	Limits agentenv.Limits
	// ToolOverrides replace built-in tools of the same names (an editor's files and
	// terminals); see agentenv.RunOptions.
	ToolOverrides []tool.Tool
}

// Session is one conversation driven by a face. Its methods are safe for concurrent
// use; Prompt, Compact and the switches run one at a time.
type Session struct {
	opts Options

	mu     sync.Mutex
	env    *agentenv.Env
	run    *agentenv.Run
	busy   bool
	cancel context.CancelFunc // of the running prompt or compaction
	idle   chan struct{}      // closed when the running work ends
	closed bool
}

// Stats are a session's totals and how full the model's context window is.
type Stats struct {
	agent.Stats
	// ContextWindow is the model's window in tokens; zero when unknown.
	ContextWindow int `json:"context_window"`
}

// ErrClosed is returned by every method that needs the agent once Close was called.
var ErrClosed = errors.New("the chat session is closed")

// Open starts a new session, or continues or resumes one, as o says.
func Open(env *agentenv.Env, o Options) (*Session, error) {
	s := &Session{opts: o, env: env}
	run, err := env.NewRun(s.runOptions(o.Continue, o.Resume, nil))
	if err != nil {
		return nil, err
	}
	s.run = run
	return s, nil
}

// runOptions are the options of every run of s; carry is the previous agent whose
// conversation the new run keeps when sessions are disabled.
func (s *Session) runOptions(cont bool, resume string, carry *agent.Agent) agentenv.RunOptions {
	ro := agentenv.RunOptions{
		Limits: s.opts.Limits, Continue: cont, Resume: resume,
		Approver: s.opts.Approver, Asker: s.opts.Asker, ToolOverrides: s.opts.ToolOverrides,
	}
	if carry != nil {
		ro.History, ro.Stats = carry.History(), carry.Stats()
	}
	return ro
}

// Warnings lists what opening or resuming the session had to repair, for the face
// to show once.
func (s *Session) Warnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.run.Warnings...)
}

// ID is the session's ID; empty when sessions are disabled.
func (s *Session) ID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.run.SessionID
}

// Title is the session's one-line title, from its first user message; empty before
// the first prompt.
func (s *Session) Title() string {
	for _, m := range s.History() {
		if m.Role == llm.RoleUser && !m.Synthetic && m.Content != "" {
			return session.Title(m.Content)
		}
	}
	return ""
}

// Model is the name of the model the session drives.
func (s *Session) Model() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.run.Model
}

// Profile is the name of the active agent profile.
func (s *Session) Profile() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.env.Profile.Name
}

// Config is the configuration the session runs with (/config shows it).
func (s *Session) Config() *config.Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.env.Config
}

// Stats returns the session's totals so far.
func (s *Session) Stats() Stats {
	a := s.agent()
	return Stats{Stats: a.Stats(), ContextWindow: a.Model().ContextWindow}
}

// History returns the conversation (compacted messages included, no system prompt),
// for replaying a loaded session or rendering a resumed one.
func (s *Session) History() []llm.Message { return s.agent().History() }

func (s *Session) agent() *agent.Agent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.run.Agent
}

// ListSessions lists the saved sessions of the session's folder, newest first, for
// a resume picker. A *session.ListError comes with the readable ones.
func (s *Session) ListSessions() ([]session.Meta, error) {
	s.mu.Lock()
	env := s.env
	s.mu.Unlock()
	return ListSessions(env)
}

// ListSessions lists the saved sessions of env's folder, newest first.
func ListSessions(env *agentenv.Env) ([]session.Meta, error) {
	if !env.Config.Session.Enabled {
		return nil, nil
	}
	return env.SessionStore().List(session.Filter{Cwd: env.WorkDir})
}

// Close stops a running prompt and closes the session. It is idempotent.
func (s *Session) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	if s.cancel != nil {
		s.cancel()
	}
	idle := s.idle
	s.mu.Unlock()
	// The running work still appends to the session log: wait for it to stop.
	if idle != nil {
		<-idle
	}
	s.mu.Lock()
	run := s.run
	s.mu.Unlock()
	run.Close()
}

// errBusy says what the face should do about an overlapping request.
func errBusy(what string) error {
	return fmt.Errorf("cannot %s: %w; wait for it to finish or cancel it", what, agent.ErrBusy)
}
