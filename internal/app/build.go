package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/openaicompat"
	"github.com/etalab-ia/albert-code/internal/llm/retry"
	"github.com/etalab-ia/albert-code/internal/permission"
	"github.com/etalab-ia/albert-code/internal/permission/shellcmd"
	"github.com/etalab-ia/albert-code/internal/profile"
	"github.com/etalab-ia/albert-code/internal/prompt"
	"github.com/etalab-ia/albert-code/internal/session"
	"github.com/etalab-ia/albert-code/internal/tool"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
	"github.com/etalab-ia/albert-code/internal/trust"
)

// env is what one invocation knows before the agent exists: the loaded configuration,
// the chosen profile, and whether the folder is trusted.
type env struct {
	workDir string
	cfg     *config.Config
	profile profile.Profile
	trusted bool

	// graph is the code_graph tool, built once so the agent and its sub-agents
	// share its refresh lock.
	graphOnce sync.Once
	graph     *agenttool.Tool
}

// loadEnv reads trust, configuration and profiles for workDir. trustFlag trusts the
// folder for this run only (--trust).
func loadEnv(workDir string, ov config.Overrides, trustFlag bool) (*env, error) {
	home, err := config.HomeDir(os.LookupEnv)
	if err != nil {
		return nil, err
	}
	ts, err := trust.Open(home)
	if err != nil {
		return nil, err
	}
	trusted := trustFlag || ts.IsTrusted(workDir)
	isTrusted := func(dir string) bool {
		return (trustFlag && isAncestorOrSelf(dir, workDir)) || ts.IsTrusted(dir)
	}
	cfg, err := config.Load(config.Options{WorkDir: workDir, Overrides: ov, Trusted: isTrusted})
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
	return &env{workDir: workDir, cfg: cfg, profile: prof, trusted: trusted}, nil
}

// isAncestorOrSelf reports whether dir is path or one of its ancestors: --trust
// covers the working directory and the project root found above it.
func isAncestorOrSelf(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// modelFor resolves the model the profile or configuration asks for.
func (e *env) modelFor() (config.Model, config.Provider, error) {
	name := e.cfg.ModelName
	if e.profile.Model != "" {
		if src, ok := e.cfg.Source("model"); !ok || src.Kind == config.SourceDefault {
			name = e.profile.Model
		}
	}
	m, err := e.cfg.Model(name)
	if err != nil {
		return config.Model{}, config.Provider{}, err
	}
	p, err := e.cfg.Provider(m.Provider)
	if err != nil {
		return config.Model{}, config.Provider{}, err
	}
	return m, p, nil
}

// newProvider builds the client for p, wrapped in retries. Only the OpenAI-compatible
// wire format exists so far; the others arrive with their providers.
func (e *env) newProvider(p config.Provider) (llm.Provider, error) {
	if p.Kind != config.KindOpenAICompatible {
		return nil, fmt.Errorf("provider %q is of kind %q, which this build cannot talk to yet; use an openai-compatible provider", p.Name, p.Kind)
	}
	key, err := e.cfg.APIKey(p.Name)
	if err != nil {
		return nil, err
	}
	inner := openaicompat.New(openaicompat.Options{
		BaseURL:      p.BaseURL,
		APIKey:       key,
		ExtraHeaders: p.Headers,
		UserAgent:    "albert-code/" + Version(),
		XMLToolCalls: p.XMLToolCalls,
		Timeout:      p.Timeout,
	})
	return retry.Wrap(inner, retry.Policy{}), nil
}

func agentModel(m config.Model) agent.Model {
	return agent.Model{
		Name: m.Name, WireName: m.WireName, ContextWindow: m.ContextWindow,
		InputPrice: m.InputPrice, OutputPrice: m.OutputPrice, Temperature: m.Temperature,
	}
}

// toolEnv turns configuration into the built-in tools' settings.
func (e *env) toolEnv() builtin.Env {
	return builtin.Env{
		WorkDir:             e.workDir,
		MaxOutputBytes:      e.cfg.Bash.MaxOutputBytes,
		BashTimeout:         e.cfg.Bash.Timeout,
		FetchMaxBytes:       int64(e.cfg.WebFetch.MaxBytes),
		AllowPrivateNetwork: e.cfg.WebFetch.AllowPrivate,
	}
}

// tools builds the registry a profile may use: built-ins filtered by the profile and by
// enabled_tools / disabled_tools (--enabled-tools).
func (e *env) tools(prof profile.Profile, deps builtin.Deps) (*tool.Registry, error) {
	enabled, err := tool.ParseNamePatterns(e.cfg.EnabledTools)
	if err != nil {
		return nil, err
	}
	disabled, err := tool.ParseNamePatterns(e.cfg.DisabledTools)
	if err != nil {
		return nil, err
	}
	all, err := tool.NewRegistry(append(builtin.All(e.toolEnv(), deps), e.codeGraph())...)
	if err != nil {
		return nil, err
	}
	return all.Filter(func(i tool.Info) bool {
		if len(enabled) > 0 && !tool.MatchAny(enabled, i.Name) {
			return false
		}
		return !tool.MatchAny(disabled, i.Name) && prof.AllowsTool(i.Name, i.ReadOnly)
	}), nil
}

// codeGraph is the code_graph tool over the workspace's index, the one the graph
// commands build when run in the workspace's root.
func (e *env) codeGraph() *agenttool.Tool {
	e.graphOnce.Do(func() {
		root := e.workDir
		goOpts := golang.DefaultOptions()
		// The model may call this read-only tool in an untrusted folder: type-checking
		// compiles nothing of the repository's own code but its cgo C files, so cgo is
		// off here (those files fall back to tree-sitter).
		goOpts.Env = append(goOpts.Env, "CGO_ENABLED=0")
		var vectors query.VectorLeg
		if e.cfg.Graph.EmbeddingsModel != "" {
			cfg := e.cfg
			vectors = &lazyVectors{open: func() query.VectorLeg {
				path, err := graphDBPath(root, true)
				if err != nil {
					return &vectorSearch{err: err}
				}
				leg, _ := vectorLegFor(cfg, path) // the cache stays open for the session
				return leg.asLeg()
			}}
		}
		e.graph = agenttool.New(agenttool.Config{
			Vectors:   vectors,
			Root:      root,
			IndexPath: func(create bool) (string, error) { return graphDBPath(root, create) },
			Index:     index.Options{Go: goOpts, Extract: treesitter.Extractor{}.Extract},
		})
	})
	return e.graph
}

// policy turns [tools.*] rules and the profile's permission overrides into the
// permission policy. For bash, allow and deny are command prefixes added to the
// built-in lists of the command classifier, not path globs.
func (e *env) policy(prof profile.Profile) *permission.Policy {
	rules := map[string]permission.Rule{}
	for name, tc := range e.cfg.Tools {
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
	bash := e.cfg.Tool("bash")
	commands := shellcmd.Defaults().With(bash.Allow, bash.Deny)
	return &permission.Policy{
		WorkDir: e.workDir, Trusted: e.trusted, AutoApprove: prof.AutoApprove, Rules: rules,
		Classifiers: map[string]func(json.RawMessage) (permission.Verdict, bool){"bash": commands.ClassifyCall},
	}
}

// limits are the headless flags that become middlewares.
type limits struct {
	maxTurns int
	maxPrice float64
}

func (e *env) middlewares(prof profile.Profile, l limits, todos *builtin.TodoList) []agent.Middleware {
	var ms []agent.Middleware
	if l.maxTurns > 0 {
		ms = append(ms, agent.TurnLimit{Max: l.maxTurns})
	}
	if l.maxPrice > 0 {
		ms = append(ms, agent.PriceCap{Max: l.maxPrice})
	}
	if prof.Middleware.ContextWarning && e.cfg.ContextWarning > 0 {
		ms = append(ms, &agent.ContextWarning{Fraction: e.cfg.ContextWarning})
	}
	if e.cfg.Compaction.Threshold > 0 {
		ms = append(ms, agent.AutoCompact{Fraction: e.cfg.Compaction.Threshold})
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

func (e *env) sessionStore() *session.Store {
	dir := e.cfg.Session.Dir
	if dir == "" {
		dir = filepath.Join(e.cfg.Home, "sessions")
	}
	return session.NewStore(dir)
}

// subAgents runs the task tool's sub-agents: a fresh history, the sub-agent profile's
// tools (never task itself, so there is no recursion), the parent's provider and
// permission rules, and no approver: a sub-agent that needs approval is refused and
// says so. Usage rolls up into the parent.
type subAgents struct {
	env      *env
	provider llm.Provider
	model    agent.Model
	parent   func() *agent.Agent
	// store and parentID, when set, keep each sub-agent's trace as a child session
	// (hidden from `sessions list`, shown with --all by its parent_id).
	store    *session.Store
	parentID string
}

func (s *subAgents) RunSubAgent(ctx context.Context, req builtin.SubAgentRequest) (string, error) {
	name := req.Agent
	if name == "" {
		name = profile.Explore
	}
	cat, err := profile.Load(profile.Options{Home: s.env.cfg.Home, WorkDir: s.env.workDir})
	if err != nil {
		return "", err
	}
	prof, err := cat.Get(name)
	if err != nil {
		return "", err
	}
	if !prof.Subagent {
		return "", fmt.Errorf("profile %q is not a sub-agent profile", name)
	}
	reg, err := s.env.tools(prof, builtin.Deps{})
	if err != nil {
		return "", err
	}
	reg = reg.Filter(func(i tool.Info) bool { return i.Name != "task" })
	system, _ := prompt.Build(prompt.Input{WorkDir: s.env.workDir, Trusted: s.env.trusted, Model: s.model.Name,
		Profile: prof.Name, ProfileAddition: prof.SystemPrompt, Now: time.Now()})
	opts := agent.Options{
		Provider: s.provider, Model: s.model, Tools: reg, Policy: s.env.policy(prof),
		SystemPrompt: system, Middlewares: []agent.Middleware{agent.TurnLimit{Max: subAgentTurns}},
	}
	if s.store != nil {
		sl, err := s.store.Create(session.Meta{Cwd: s.env.workDir, Model: s.model.Name, Profile: prof.Name, ParentID: s.parentID})
		if err != nil {
			return "", err
		}
		defer sl.Close()
		opts.Log, opts.SessionID = sessionLog{log: sl}, sl.ID()
	}
	child, err := agent.New(opts)
	if err != nil {
		return "", err
	}
	res := child.Run(ctx, req.Prompt, func(ev agent.Event) {
		if ev.Kind == agent.EventToolCallStart && req.Progress != nil {
			req.Progress(fmt.Sprintf("%s %s\n", ev.Tool.Name, abbreviateArgs(string(ev.Tool.Arguments))))
		}
	})
	if p := s.parent(); p != nil {
		p.AddUsage(res.Stats.Usage, res.Stats.Cost)
	}
	if res.Err != nil {
		return "", res.Err
	}
	if res.Stop == agent.StopMaxTurns {
		return res.Text + fmt.Sprintf("\n\n[the sub-agent stopped after %d model calls]", subAgentTurns), nil
	}
	if res.Stop == agent.StopCancelled {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		return "", context.Canceled
	}
	return res.Text, nil
}

// subAgentTurns bounds a sub-agent so a confused one cannot burn the parent's budget
// (a judgement call: enough for a focused exploration).
const subAgentTurns = 30

func abbreviateArgs(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:77]) + "..."
	}
	return s
}
