// Package agentenv builds a ready agent for one folder from the user's configuration:
// model and provider, tools, permission policy, middlewares, system prompt and session.
// Every face that runs our agent (headless mode, the serve layer's native adapter)
// builds it here, so they all get the same agent.
package agentenv

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/retry"
	"github.com/etalab-ia/albert-code/internal/permission"
	"github.com/etalab-ia/albert-code/internal/permission/shellcmd"
	"github.com/etalab-ia/albert-code/internal/profile"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/sensitive"
	"github.com/etalab-ia/albert-code/internal/session"
	"github.com/etalab-ia/albert-code/internal/tool"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
	"github.com/etalab-ia/albert-code/internal/trust"
)

// Options say where and how to load an Env.
type Options struct {
	// WorkDir is the folder the agent works in; it must be absolute.
	WorkDir   string
	Overrides config.Overrides
	// Trust trusts WorkDir for this run only (--trust): tools may change it, and the
	// project files found in it or above it are read.
	Trust bool
	// IgnoreProjectFiles never reads project configuration or profiles, trusted or
	// not: for a server whose workspaces are written by its clients, since a project
	// file can redirect base_url and so receive the API key.
	IgnoreProjectFiles bool
	// LookupEnv replaces os.LookupEnv for the configuration; nil reads the process's.
	LookupEnv func(string) (string, bool)
	// UserAgent is sent to model servers, such as "albert-code/1.2.0".
	UserAgent string
}

// Env is what one invocation knows before the agent exists: the loaded configuration,
// the chosen profile, and whether the folder is trusted.
type Env struct {
	WorkDir string
	Config  *config.Config
	Profile profile.Profile
	Trusted bool

	userAgent string
	// trustedDir is the project-file trust rule Load used, kept so Profiles reads
	// the same profiles again.
	trustedDir func(dir string) bool
	// model, when set by WithModel, wins over the profile's and the configuration's.
	model string
	// noFallback builds rate-limit layers without a fallback model (a fallback's own).
	noFallback bool
	// mcp and skillSet are shared by the Env's copies: servers started once for the
	// session, skills found once. lookupEnv reads MCP bearer tokens.
	mcp       *mcpServers
	skillSet  *skillSet
	lookupEnv func(string) (string, bool)
	// sb is the workspace's sandbox, made on first use and shared by the copies;
	// graph is its code_graph tool, likewise.
	sb    *sharedSandbox
	graph *sharedGraph
	// profileWarnings name the profile files and keys that were ignored.
	profileWarnings *onceWarnings
}

type sharedSandbox struct {
	mu sync.Mutex
	s  *sandbox.Sandbox
}

// Load reads trust, configuration and profiles for opts.WorkDir.
func Load(opts Options) (*Env, error) {
	lookup := opts.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	home, err := config.HomeDir(lookup)
	if err != nil {
		return nil, err
	}
	ts, err := trust.Open(home)
	if err != nil {
		return nil, err
	}
	workDir := opts.WorkDir
	trusted := opts.Trust || ts.IsTrusted(workDir)
	isTrusted := func(dir string) bool {
		if opts.IgnoreProjectFiles {
			return false
		}
		return (opts.Trust && isAncestorOrSelf(dir, workDir)) || ts.IsTrusted(dir)
	}
	cfg, err := config.Load(config.Options{WorkDir: workDir, Overrides: opts.Overrides, Trusted: isTrusted, LookupEnv: opts.LookupEnv,
		ListModels: serverModels(home)})
	if err != nil {
		return nil, err
	}
	cat, err := profile.Load(profile.Options{Home: cfg.Home, WorkDir: workDir, Trusted: isTrusted})
	if err != nil {
		return nil, err
	}
	prof, err := cat.Get(cfg.Agent)
	if err != nil {
		return nil, err
	}
	return &Env{WorkDir: workDir, Config: cfg, Profile: prof, Trusted: trusted, userAgent: opts.UserAgent, trustedDir: isTrusted, sb: &sharedSandbox{}, graph: &sharedGraph{},
		mcp: newMCPServers(), skillSet: &skillSet{}, lookupEnv: lookup, profileWarnings: &onceWarnings{lines: append(append(cfg.Notices, originalFiles(cfg)...), cat.Warnings...)}}, nil
}

// isAncestorOrSelf reports whether dir is path or one of its ancestors: --trust
// covers the working directory and the project root found above it.
func isAncestorOrSelf(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// ModelFor resolves the model the profile or configuration asks for.
func (e *Env) ModelFor() (config.Model, config.Provider, error) {
	name := e.Config.ModelName
	if e.model != "" {
		name = e.model
	} else if e.Profile.Model != "" {
		if src, ok := e.Config.Source("model"); !ok || src.Kind == config.SourceDefault {
			name = e.Profile.Model
		}
	}
	m, err := e.Config.Model(name)
	if err != nil {
		return config.Model{}, config.Provider{}, err
	}
	p, err := e.Config.Provider(m.Provider)
	if err != nil {
		return config.Model{}, config.Provider{}, err
	}
	return m, p, nil
}

// NewProvider builds the client for p's wire format (see wireProvider), wrapped in
// retries.
func (e *Env) NewProvider(p config.Provider) (llm.Provider, error) {
	key, err := e.Config.APIKey(p.Name)
	if err != nil {
		return nil, err
	}
	inner, err := e.wireProvider(p, key)
	if err != nil {
		return nil, err
	}
	policy := retry.Policy{MaxWait: e.Config.RateLimits.MaxWaitOrDefault(), MaxWaitSetting: "rate_limits.max_wait"}
	return retry.Wrap(e.rateLimited(p, key, inner), policy), nil
}

// AgentModel is what the agent loop needs to know of m.
func AgentModel(m config.Model) agent.Model {
	return agent.Model{
		Name: m.Name, WireName: m.WireName, ContextWindow: m.ContextWindow,
		InputPrice: m.InputPrice, OutputPrice: m.OutputPrice, Temperature: m.Temperature,
	}
}

// toolEnv turns configuration into the built-in tools' settings.
func (e *Env) toolEnv() builtin.Env {
	return builtin.Env{
		WorkDir:             e.WorkDir,
		Sandbox:             e.Sandbox(),
		MaxOutputBytes:      e.Config.Bash.MaxOutputBytes,
		BashTimeout:         e.Config.Bash.Timeout,
		FetchMaxBytes:       int64(e.Config.WebFetch.MaxBytes),
		AllowPrivateNetwork: e.Config.WebFetch.AllowPrivate,
		Secrets:             e.secrets(),
		AllowSecrets:        e.Config.Permissions.AllowSecret,
	}
}

// secrets are the paths no tool may read: the built-in list for this user and this
// configuration's home, and the user's [sandbox] deny_read.
func (e *Env) secrets() []string {
	var home string
	if e.lookupEnv != nil {
		home, _ = e.lookupEnv("HOME")
	}
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return sensitive.Secrets(home, e.Config.Home, e.Config.Sandbox.DenyRead...)
}

// Tools builds the registry a profile may use: built-ins, the skill tool and the tools
// of the MCP servers a run started, filtered by the profile and by enabled_tools /
// disabled_tools (--enabled-tools, --disabled-tools).
func (e *Env) Tools(prof profile.Profile, deps builtin.Deps) (*tool.Registry, error) {
	reg, _, err := e.toolsWithheld(prof, deps)
	return reg, err
}

// toolsWithheld is Tools that also says, for each tool it filtered out, which rule
// took it away and what would give it back: the agent tells the model that rather
// than "unknown tool".
func (e *Env) toolsWithheld(prof profile.Profile, deps builtin.Deps) (*tool.Registry, map[string]string, error) {
	enabled, err := tool.ParseNamePatterns(e.Config.EnabledTools)
	if err != nil {
		return nil, nil, err
	}
	disabled, err := tool.ParseNamePatterns(e.Config.DisabledTools)
	if err != nil {
		return nil, nil, err
	}
	tools := builtin.All(e.toolEnv(), deps)
	if g := e.codeGraph(); g != nil {
		tools = append(tools, g)
	}
	tools = append(tools, e.extensionTools()...)
	all, err := tool.NewRegistry(tools...)
	if err != nil {
		return nil, nil, err
	}
	withheld := map[string]string{}
	reg := all.Filter(func(i tool.Info) bool {
		why := withheldBy(prof, enabled, disabled, i)
		if why != "" {
			withheld[i.Name] = why
		}
		return why == ""
	})
	return reg, withheld, nil
}

// withheldBy names the rule that keeps tool i from profile prof, or "" when none does.
func withheldBy(prof profile.Profile, enabled, disabled []tool.NamePattern, i tool.Info) string {
	switch {
	case len(enabled) > 0 && !tool.MatchAny(enabled, i.Name):
		return "it is not in enabled_tools (--enabled-tools)"
	case tool.MatchAny(disabled, i.Name):
		return "disabled_tools (--disabled-tools) takes it away"
	case prof.Name == profile.Plan && !prof.AllowsTool(i.Name, i.ReadOnly):
		return "it is not allowed in plan mode, which only reads; the user leaves plan mode (Shift+Tab, or --agent default) to change files or run commands"
	case !prof.AllowsTool(i.Name, i.ReadOnly):
		return fmt.Sprintf("the %q profile does not allow it", prof.Name)
	}
	return ""
}

// Policy turns [tools.*] rules and the profile's permission overrides into the
// permission policy. For bash, allow and deny are command prefixes added to the
// built-in lists of the command classifier, not path globs.
func (e *Env) Policy(prof profile.Profile) *permission.Policy {
	rules := map[string]permission.Rule{}
	for name, tc := range e.Config.Tools {
		r := permission.Rule{Level: permission.Level(tc.Permission), Allow: tc.Allow, Deny: tc.Deny}
		if name == "bash" {
			r.Allow, r.Deny = nil, nil
		}
		rules[name] = r
	}
	for name, p := range prof.Permissions {
		r := rules[name]
		r.Level = permission.Level(p)
		rules[name] = r
	}
	bash := e.Config.Tool("bash")
	commands := shellcmd.Defaults().With(bash.Allow, bash.Deny)
	return &permission.Policy{
		WorkDir: e.WorkDir, Trusted: e.Trusted, AutoApprove: prof.AutoApprove, Rules: rules,
		// Without a sandbox to hold a classifier's miss, nothing runs unasked.
		Classifiers:  map[string]func(json.RawMessage) (permission.Verdict, bool){"bash": failClosed(commands.ClassifyCall, e.Sandbox().Status())},
		Secrets:      e.secrets(),
		AllowSecrets: e.Config.Permissions.AllowSecret,
		AllowControl: e.Config.Permissions.AllowControl,
	}
}

// Limits are the run limits that become middlewares.
type Limits struct {
	MaxTurns int
	MaxPrice float64
}

// Middlewares lists the guards a profile turns on, in the order they run.
func (e *Env) Middlewares(prof profile.Profile, l Limits, todos *builtin.TodoList) []agent.Middleware {
	var ms []agent.Middleware
	if l.MaxTurns > 0 {
		ms = append(ms, agent.TurnLimit{Max: l.MaxTurns})
	}
	if l.MaxPrice > 0 {
		ms = append(ms, agent.PriceCap{Max: l.MaxPrice})
	}
	if prof.Middleware.ContextWarning && e.Config.ContextWarning > 0 {
		ms = append(ms, &agent.ContextWarning{Fraction: e.Config.ContextWarning})
	}
	if e.Config.Compaction.Threshold > 0 {
		ms = append(ms, agent.AutoCompact{Fraction: e.Config.Compaction.Threshold})
	}
	if prof.Middleware.ReadOnlyGuard {
		ms = append(ms, &agent.ReadOnlyGuard{})
	}
	if prof.Middleware.TodoFocus && todos != nil {
		// Five calls between reminders: often enough to keep a long plan in view,
		// rarely enough not to bloat the context (the original reminded every call).
		ms = append(ms, &agent.TodoFocus{Every: 5, Items: func() []agent.Todo {
			var out []agent.Todo
			for _, it := range todos.Items() {
				out = append(out, agent.Todo{Content: it.Content, Status: string(it.Status)})
			}
			return out
		}})
	}
	if m := e.autoContinue(prof, todos); m != nil {
		ms = append(ms, m)
	}
	return ms
}

// sessionLog adapts session.Log to the agent's SessionLog.
type sessionLog struct{ log *session.Log }

func (s sessionLog) Append(msgs ...llm.Message) error { return s.log.Append(msgs...) }

func (s sessionLog) SaveStats(st agent.Stats) error {
	return s.log.UpdateMeta(func(m *session.Meta) {
		m.Usage = st.Usage
		m.Cost = st.Cost
	})
}

// SessionStore is where this configuration keeps sessions.
func (e *Env) SessionStore() *session.Store {
	dir := e.Config.Session.Dir
	if dir == "" {
		dir = filepath.Join(e.Config.Home, "sessions")
	}
	return session.NewStore(dir)
}

func (e *Env) searchBackend() builtin.SearchBackend {
	if e.Config.WebSearch.BaseURL == "" {
		return nil
	}
	return &builtin.SearXNG{BaseURL: e.Config.WebSearch.BaseURL}
}
