package agentenv

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/prompt"
	"github.com/etalab-ia/albert-code/internal/session"
	"github.com/etalab-ia/albert-code/internal/skill"
	"github.com/etalab-ia/albert-code/internal/tool"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

// RunOptions shape one conversation. The zero value starts a fresh session with the
// profile's tools and the built system prompt.
type RunOptions struct {
	Limits
	// Continue opens the latest session of WorkDir; Resume the session with this ID
	// or unique prefix. They are exclusive.
	Continue bool
	Resume   string
	// FirstPrompt titles a new session.
	FirstPrompt string
	// SystemPrompt replaces the built system prompt; AppendSystemPrompt is added to
	// whichever is used.
	SystemPrompt       string
	AppendSystemPrompt string
	// NoTools offers the model no tool at all.
	NoTools bool
	// WrapProvider, when set, wraps the provider the agent and its sub-agents call.
	WrapProvider func(llm.Provider) llm.Provider
	// Approver answers the calls the policy says to ask about; nil denies them, as a
	// face with nobody to ask must. Asker answers ask_user_question; nil tells the
	// model nobody can answer.
	Approver agent.Approver
	Asker    builtin.Asker
	// History and Stats carry a conversation into a rebuilt run (another profile or
	// model) when sessions are disabled; with sessions on, Resume reloads it instead
	// and these are ignored.
	History []llm.Message
	Stats   agent.Stats
	// ToolOverrides replace the built-in tools of the same names, when the profile
	// keeps them: an editor serving read and write from its buffers, bash from its
	// terminals. Sub-agents keep the built-ins.
	ToolOverrides []tool.Tool
}

// Run is one prepared conversation. Close it once the agent is done.
type Run struct {
	Agent     *agent.Agent
	SessionID string // empty when sessions are disabled
	Model     string
	Warnings  []string
	close     func()

	skills        []skill.Skill
	activateSkill func(skill.Skill) // nil without the skill tool
}

// Commands are the skills the user may run as slash commands (/name).
func (r *Run) Commands() []skill.Skill {
	var out []skill.Skill
	for _, s := range r.skills {
		if s.UserInvocable {
			out = append(out, s)
		}
	}
	return out
}

// UseSkill finds the user-invocable skill called name for a /name command and,
// as when the model loads it, pre-approves its allowed-tools for the session.
func (r *Run) UseSkill(name string) (skill.Skill, bool) {
	for _, s := range r.Commands() {
		if s.Name == name {
			if r.activateSkill != nil {
				r.activateSkill(s)
			}
			return s, true
		}
	}
	return skill.Skill{}, false
}

// Close stops the background work of the run and closes its session.
func (r *Run) Close() { r.close() }

// NewRun builds the agent: model and provider, session (new, continued or resumed),
// tools, permissions, middlewares and system prompt. The session is opened while the
// tools are built: one waits on the disk (fsyncs), the other on the CPU (schemas), and
// start-up is most of a short run's overhead.
func (e *Env) NewRun(o RunOptions) (*Run, error) {
	m, p, err := e.ModelFor()
	if err != nil {
		return nil, err
	}
	provider, err := e.NewProvider(p)
	if err != nil {
		return nil, err
	}
	if o.WrapProvider != nil {
		provider = o.WrapProvider(provider)
	}
	basePrompt, err := e.customBasePrompt()
	if err != nil {
		return nil, err
	}
	projectContext := e.startProjectContext(o.SystemPrompt != "")
	releaseMCP := e.acquireMCP(o.NoTools)
	var sess openedSession
	var sessErr error
	opened := make(chan struct{})
	go func() {
		defer close(opened)
		sess, sessErr = e.openSession(o, m.Name)
	}()

	subs := &subAgents{env: e, provider: provider, model: AgentModel(m)}
	todos := &builtin.TodoList{}
	reg, withheld, toolErr := e.toolsWithheld(e.Profile, builtin.Deps{Todos: todos, Asker: o.Asker, SubAgents: subs, Search: e.searchBackend()})
	if toolErr == nil && o.NoTools {
		reg = reg.Filter(func(tool.Info) bool { return false })
	}
	if toolErr == nil {
		reg, toolErr = overrideTools(reg, o.ToolOverrides)
	}
	system := o.SystemPrompt
	if system == "" {
		system, _ = prompt.Build(prompt.Input{Sandbox: e.sandboxPrompt(), WorkDir: e.WorkDir, Trusted: e.Trusted, Model: m.Name,
			Profile: e.Profile.Name, ProfileAddition: e.Profile.SystemPrompt, Now: time.Now(), Skills: e.promptSkills(reg),
			Base: basePrompt, ProjectContext: projectContext()})
	}
	if s := strings.TrimSpace(o.AppendSystemPrompt); s != "" {
		system += "\n\n" + s
	}
	<-opened
	if sess.log == nil && sessErr == nil {
		sess.history, sess.stats = o.History, o.Stats
	}
	policy := e.Policy(e.Profile)
	var activateSkill func(skill.Skill)
	if toolErr == nil {
		reg, activateSkill, toolErr = e.withSkillGrants(reg, policy, sess.history)
	}
	if err := errors.Join(sessErr, toolErr); err != nil {
		sess.close()
		releaseMCP()
		return nil, err
	}

	// Resolving the tools' validation schemas uses the CPU while the first model call
	// waits on the network; Close waits for it, so no goroutine outlives the run.
	prepared := make(chan struct{})
	go func() {
		defer close(prepared)
		reg.Prepare()
	}()
	_, hasGraph := reg.Get(agenttool.Name)
	// An existing code-graph index is brought up to date while the conversation
	// starts; the run's end stops and waits for it.
	warmCtx, stopWarm := context.WithCancel(context.Background())
	warmed := make(chan struct{})
	go func() {
		defer close(warmed)
		if hasGraph {
			if err := e.codeGraph().Warm(warmCtx); err != nil && warmCtx.Err() == nil {
				slog.Warn("refresh the code graph", "err", err)
			}
		}
	}()
	middlewares := e.Middlewares(e.Profile, o.Limits, todos)
	if hasGraph {
		// A write, an edit or a command may change the sources: the index is
		// refreshed in the background before the next question needs it.
		middlewares = append(middlewares, &refreshAfterChanges{graph: e.codeGraph(), mutating: func(name string) bool {
			t, ok := reg.Get(name)
			return ok && !t.Info().ReadOnly
		}})
	}
	warnings := append(sess.warnings, e.extensionWarnings()...)
	if n := e.SandboxNotice(); n != "" {
		warnings = append(warnings, n)
	}
	r := &Run{Model: m.Name, Warnings: warnings, close: func() {
		defer releaseMCP()
		stopWarm()
		if hasGraph {
			e.codeGraph().Stop()
		}
		<-prepared
		<-warmed
		sess.close()
	}, skills: e.skillsFor(), activateSkill: activateSkill}
	opts := agent.Options{
		Provider: provider, Model: AgentModel(m), Tools: reg, Policy: policy,
		Approver: o.Approver, Middlewares: middlewares,
		SystemPrompt: system, History: sess.history, Stats: sess.stats,
		CompactKeepTurns: e.Config.Compaction.KeepRecentTurns,
		Confine:          confine(e.Profile),
		Withheld:         withheld,
	}
	if sess.log != nil {
		r.SessionID = sess.log.ID()
		subs.store, subs.parentID = e.SessionStore(), r.SessionID
		opts.Log, opts.SessionID = sessionLog{log: sess.log}, r.SessionID
	}
	if opts.Hooks, err = e.hooksFor(r.SessionID); err != nil {
		r.close()
		return nil, err
	}
	a, err := agent.New(opts)
	if err != nil {
		r.close()
		return nil, err
	}
	subs.parent = func() *agent.Agent { return a }
	r.Agent = a
	if !o.NoTools {
		withdraw, closeRun := e.offerSampling(a, provider, m, o.Approver), r.close
		r.close = func() {
			withdraw()
			closeRun()
		}
	}
	return r, nil
}

// openedSession is the session a run appends to, with what it brings back.
type openedSession struct {
	log      *session.Log // nil when sessions are disabled
	history  []llm.Message
	stats    agent.Stats
	warnings []string
}

func (s openedSession) close() {
	if s.log != nil {
		_ = s.log.Close()
	}
}

// openSession creates a session, or opens the one Continue or Resume names.
func (e *Env) openSession(o RunOptions, model string) (openedSession, error) {
	if !e.Config.Session.Enabled {
		return openedSession{}, nil
	}
	store := e.SessionStore()
	if !o.Continue && o.Resume == "" {
		// The title is known now: setting it here saves a meta.json rewrite on the
		// first append.
		sl, err := store.Create(session.Meta{Cwd: e.WorkDir, Model: model, Profile: e.Profile.Name, Title: session.Title(o.FirstPrompt)})
		return openedSession{log: sl}, err
	}
	ref := o.Resume
	if o.Continue {
		var err error
		if ref, err = store.Latest(e.WorkDir); err != nil {
			return openedSession{}, err
		}
	}
	sl, history, err := store.Open(ref)
	if err != nil {
		return openedSession{}, err
	}
	meta := sl.Meta()
	warnings := sl.Warnings()
	// The session goes on with this run's profile and model: record them, so that
	// reopening it (ACP's session/load) restores them rather than the defaults.
	if meta.Profile != e.Profile.Name || meta.Model != model {
		if err := sl.UpdateMeta(func(m *session.Meta) { m.Profile, m.Model = e.Profile.Name, model }); err != nil {
			warnings = append(warnings, "could not record the session's profile and model: "+err.Error())
		}
	}
	return openedSession{log: sl, history: history, stats: agent.Stats{Usage: meta.Usage, Cost: meta.Cost}, warnings: warnings}, nil
}

// overrideTools swaps in each override whose name reg already has.
func overrideTools(reg *tool.Registry, overrides []tool.Tool) (*tool.Registry, error) {
	for _, t := range overrides {
		name := t.Info().Name
		if _, ok := reg.Get(name); !ok {
			continue
		}
		reg = reg.Filter(func(i tool.Info) bool { return i.Name != name })
		if err := reg.Add(t); err != nil {
			return nil, err
		}
	}
	return reg, nil
}
