// Package native is the serve layer's in-process backend: it runs our own agent for a
// run request (no subprocess), streaming its tokens, reasoning, tool calls and usage
// as they happen, and gives the OpenAI-compatible endpoint single model turns with the
// client's own function tools.
package native

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/profile"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/session"
)

// Name is the backend's name, as ALBERT_CODE_ADAPTER gives it.
const Name = "native"

// thinkingLevels are OpenAI's reasoning_effort values, which vLLM and Albert accept.
var thinkingLevels = []string{"minimal", "low", "medium", "high"}

// Options configure a Native backend. The zero value runs with the process's
// configuration and the auto-approve profile.
type Options struct {
	// LookupEnv replaces os.LookupEnv for the configuration; a request's Env is
	// looked up first.
	LookupEnv func(string) (string, bool)
	// UserAgent is sent to model servers.
	UserAgent string
	// Profile is the agent profile of every run; empty means auto-approve, since
	// nobody is there to approve a call.
	Profile string
	// Timeout and IdleTimeout are the defaults for requests without their own;
	// zero means the runner's.
	Timeout, IdleTimeout time.Duration
	// ConfigDir is where Complete and Models read the configuration (project files
	// are never read); empty means the current directory.
	ConfigDir string
}

// Native runs our agent in-process. It is safe for concurrent use: each run builds
// its own agent, provider and session.
type Native struct {
	opts Options

	// base is the configuration of Complete and Models, loaded once: a server
	// reads its configuration at start-up. providers keeps one provider per model
	// so their connections stay warm.
	baseOnce  sync.Once
	base      *agentenv.Env
	baseErr   error
	mu        sync.Mutex
	providers map[string]modelProvider
}

// New returns a Native backend.
func New(opts Options) *Native {
	if opts.Profile == "" {
		opts.Profile = profile.AutoApprove
	}
	if opts.Timeout == 0 {
		opts.Timeout = runner.DefaultTimeout
	}
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = runner.DefaultIdleTimeout
	}
	return &Native{opts: opts, providers: map[string]modelProvider{}}
}

// Name is "native".
func (n *Native) Name() string { return Name }

// ThinkingLevels are the values Request.Thinking accepts, sent as reasoning_effort.
func (n *Native) ThinkingLevels() []string { return slices.Clone(thinkingLevels) }

// Models lists the configured model names, sorted, then the ids the servers'
// cached model lists add; none when the configuration cannot be read.
func (n *Native) Models() []string {
	env, err := n.baseEnv()
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(env.Config.Models))
	for _, m := range env.Config.Models {
		names = append(names, m.Name)
	}
	slices.Sort(names)
	for _, m := range env.Config.ServerModels() {
		names = append(names, m.Name)
	}
	return names
}

// Validate refuses what the native backend cannot honour, saying what to send instead.
func (n *Native) Validate(req *backend.Request) error {
	switch {
	case !filepath.IsAbs(req.Workspace):
		return fmt.Errorf("workspace %q: want an absolute folder", req.Workspace)
	case len(req.ExtraArgs) > 0:
		return fmt.Errorf("extraArgs: the native adapter runs no process; use a CLI adapter for agent arguments")
	case req.NoTools && len(req.ToolsAllowlist) > 0:
		return fmt.Errorf("noTools and toolsAllowlist together: send one or the other")
	case req.Thinking != "" && !slices.Contains(thinkingLevels, req.Thinking):
		return fmt.Errorf("thinking %q is not a level of %s: want one of %s", req.Thinking, Name, strings.Join(thinkingLevels, ", "))
	case req.EventMode != "" && req.EventMode != backend.EventsNone && req.EventMode != backend.EventsFull:
		return fmt.Errorf("eventMode %q: want %q or %q", req.EventMode, backend.EventsNone, backend.EventsFull)
	}
	if st, err := os.Stat(req.Workspace); err != nil || !st.IsDir() {
		return fmt.Errorf("workspace %s: not a folder", req.Workspace)
	}
	return nil
}

// invalid marks err as the client's fault.
func invalid(err error) error { return fmt.Errorf("%w: %w", backend.ErrInvalidRequest, err) }

// prepare loads the run's environment and builds its agent. Errors a client can fix
// (a model, a session that does not exist) are marked invalid.
func (n *Native) prepare(req *backend.Request, wrap func(llm.Provider) llm.Provider) (*agentenv.Run, error) {
	ov := config.Overrides{Model: req.Model, Agent: n.opts.Profile}
	if len(req.ToolsAllowlist) > 0 {
		ov.EnabledTools = req.ToolsAllowlist
	}
	// The workspace is trusted (the operator chose the root, and a server has
	// nobody to ask), but its project files are not read: clients write them.
	env, err := agentenv.Load(agentenv.Options{
		WorkDir: req.Workspace, Overrides: ov, Trust: true, IgnoreProjectFiles: true,
		LookupEnv: overlay(req.Env, n.opts.LookupEnv), UserAgent: n.opts.UserAgent,
	})
	if err != nil {
		return nil, invalid(err)
	}
	if _, _, err := env.ModelFor(); err != nil {
		return nil, invalid(err)
	}
	cont := req.Continue && req.Resume == ""
	if cont {
		// Continuing is the API's default: a workspace without a session starts one.
		if _, err := env.SessionStore().Latest(req.Workspace); errors.Is(err, session.ErrNoSession) {
			cont = false
		}
	}
	run, err := env.NewRun(agentenv.RunOptions{
		Continue: cont, Resume: req.Resume, FirstPrompt: req.Prompt,
		SystemPrompt: req.SystemPrompt, AppendSystemPrompt: req.AppendSystemPrompt,
		NoTools: req.NoTools, WrapProvider: wrap,
	})
	if err != nil {
		if errors.Is(err, session.ErrNotFound) || errors.Is(err, session.ErrAmbiguous) || errors.Is(err, config.ErrMissingAPIKey) {
			return nil, invalid(err)
		}
		return nil, err
	}
	return run, nil
}

// overlay looks names up in vars first, then in lookup (nil: the process's).
func overlay(vars map[string]string, lookup func(string) (string, bool)) func(string) (string, bool) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	if len(vars) == 0 {
		return lookup
	}
	return func(name string) (string, bool) {
		if v, ok := vars[name]; ok {
			return v, true
		}
		return lookup(name)
	}
}

// baseEnv is the server's own configuration, for Complete and Models.
func (n *Native) baseEnv() (*agentenv.Env, error) {
	n.baseOnce.Do(func() {
		dir := n.opts.ConfigDir
		if dir == "" {
			var err error
			if dir, err = os.Getwd(); err != nil {
				n.baseErr = err
				return
			}
		}
		n.base, n.baseErr = agentenv.Load(agentenv.Options{
			WorkDir: dir, Overrides: config.Overrides{Agent: n.opts.Profile}, IgnoreProjectFiles: true,
			LookupEnv: n.opts.LookupEnv, UserAgent: n.opts.UserAgent,
		})
	})
	return n.base, n.baseErr
}

var _ backend.Backend = (*Native)(nil)

// stoppedBy names why ctx ended: a timeout, the idle watchdog, or a cancel.
func stoppedBy(ctx context.Context) backend.ErrorKind {
	switch context.Cause(ctx) {
	case errTimeout:
		return backend.ErrorTimeout
	case errIdle:
		return backend.ErrorIdle
	}
	return backend.ErrorCancelled
}

// SandboxNotice is what the server logs once at start about the OS sandbox under
// the agent's commands: "" when it confines them.
func (n *Native) SandboxNotice() string {
	env, err := n.baseEnv()
	if err != nil {
		return ""
	}
	return env.SandboxNotice()
}

// QuotaWarnings are the start-up quota warnings of the configured model ("warning:"
// at 80 % of a daily quota, "critical:" at 95 %, a rate-limit state that had to be
// rebuilt), for the server to log once when it starts, as every face shows them.
func (n *Native) QuotaWarnings(ctx context.Context) []string {
	env, err := n.baseEnv()
	if err != nil {
		return nil
	}
	return env.QuotaWarnings(ctx)
}
