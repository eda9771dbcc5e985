package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/headless"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/prompt"
	"github.com/etalab-ia/albert-code/internal/session"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

// runFlags are the flags of the agent itself (the root command).
type runFlags struct {
	print        bool
	output       string
	maxTurns     int
	maxPrice     float64
	enabledTools []string
	agent        string
	model        string
	baseURL      string
	trust        bool
	cont         bool
	resume       string
	workdir      string
}

func newRootCmd(stdin io.Reader) *cobra.Command {
	var f runFlags
	root := &cobra.Command{
		Use:   "albert-code [PROMPT]",
		Short: "A coding agent for the Albert API and any OpenAI-compatible model server",
		Long: `albert-code reads and edits code, runs commands and answers questions about a
repository, driving a model through the Albert API or any OpenAI-compatible server.

  albert-code -p "fix the failing test"          run one prompt and print the answer
  echo "summarise README.md" | albert-code -p    the prompt may come on stdin
  albert-code -p --output json "..."             one JSON result for scripts`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Words after the flags are the prompt, not subcommands.
		Args:    cobra.ArbitraryArgs,
		Version: Version(),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAgent(cmd, f, args, stdin)
		},
	}
	fl := root.Flags()
	fl.BoolVarP(&f.print, "print", "p", false, "run the prompt without the interactive UI and print the result (headless)")
	fl.StringVar(&f.output, "output", "text", "headless output: text, json or stream-json")
	fl.IntVar(&f.maxTurns, "max-turns", 0, "stop after this many model calls (0: no limit)")
	fl.Float64Var(&f.maxPrice, "max-price", 0, "stop once the session has cost this much, in EUR (0: no limit)")
	fl.StringSliceVar(&f.enabledTools, "enabled-tools", nil, "only offer these tools (names, globs such as 'web_*', or 're:' regular expressions)")
	fl.StringVar(&f.agent, "agent", "", "agent profile: default, plan, accept-edits, auto-approve or your own")
	fl.StringVar(&f.model, "model", "", "model to use (a name, alias or wire name from the configuration)")
	fl.StringVar(&f.baseURL, "base-url", "", "override the active provider's base URL")
	fl.BoolVar(&f.trust, "trust", false, "trust the working directory for this run (file-changing tools, project config)")
	fl.BoolVarP(&f.cont, "continue", "c", false, "continue the latest session of this directory")
	fl.StringVar(&f.resume, "resume", "", "resume the session with this ID (or unique prefix)")
	fl.StringVar(&f.workdir, "workdir", "", "work in this directory instead of the current one")
	root.MarkFlagsMutuallyExclusive("continue", "resume")
	root.SetVersionTemplate("albert-code {{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError("%v", err) })

	root.AddCommand(newVersionCmd(), newConfigCmd(), newSessionsCmd(), newTrustCmd(), newGraphCmd())
	return root
}

func runAgent(cmd *cobra.Command, f runFlags, args []string, stdin io.Reader) error {
	format, err := headless.ParseFormat(f.output)
	if err != nil {
		return usageError("%v", err)
	}
	if !f.print {
		return usageError("the interactive terminal UI is not part of this build yet: run a prompt with -p (see albert-code --help)")
	}
	text, err := readPrompt(args, stdin)
	if err != nil {
		return err
	}
	if f.workdir != "" {
		if err := os.Chdir(f.workdir); err != nil {
			return usageError("--workdir: %v", err)
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("working directory: %w", err)
	}
	ov := config.Overrides{Model: f.model, BaseURL: f.baseURL, Agent: f.agent}
	if cmd.Flags().Changed("enabled-tools") {
		ov.EnabledTools = f.enabledTools
	}
	e, err := loadEnv(wd, ov, f.trust)
	if err != nil {
		return usageError("%v", err)
	}
	closeLog := openLogFile(e.cfg.Home)
	defer closeLog()
	run, err := e.newRun(f, text)
	if err != nil {
		if errors.Is(err, config.ErrMissingAPIKey) || errors.Is(err, session.ErrNotFound) ||
			errors.Is(err, session.ErrNoSession) || errors.Is(err, session.ErrAmbiguous) {
			return usageError("%v", err)
		}
		return &exitError{code: ExitError, err: err}
	}
	defer run.close()
	for _, w := range run.warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "albert-code: warning:", w)
	}

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := headless.Run(ctx, run.agent, text, headless.Options{
		Format: format, SessionID: run.sessionID, Model: run.model,
		Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr(),
	})
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	return exitFor(res)
}

// exitFor maps how a run ended to the documented exit codes. The error itself was
// already reported: on stderr in text mode, in the result object in the JSON modes.
func exitFor(res agent.Result) error {
	switch res.Stop {
	case agent.StopEndTurn:
		return nil
	case agent.StopMaxTurns, agent.StopMaxPrice:
		return &exitError{code: ExitLimit}
	case agent.StopCancelled:
		return &exitError{code: ExitCancelled}
	}
	return &exitError{code: ExitError}
}

// readPrompt takes the prompt from the arguments, or from stdin when none is given and
// stdin is not a terminal. No TTY is needed: CI pipes the prompt in.
func readPrompt(args []string, stdin io.Reader) (string, error) {
	text := strings.TrimSpace(strings.Join(args, " "))
	if text != "" {
		return text, nil
	}
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return "", usageError("no prompt: give one as an argument (albert-code -p \"...\") or on stdin")
	}
	data, err := io.ReadAll(stdin)
	if err != nil {
		return "", fmt.Errorf("read prompt from stdin: %w", err)
	}
	if text = strings.TrimSpace(string(data)); text == "" {
		return "", usageError("no prompt: give one as an argument (albert-code -p \"...\") or on stdin")
	}
	return text, nil
}

// run is one prepared conversation.
type run struct {
	agent     *agent.Agent
	sessionID string
	model     string
	warnings  []string
	close     func()
}

// newRun builds the agent for a headless run: model and provider, session (new,
// continued or resumed), tools, permissions, middlewares and system prompt. The
// session is opened while the tools are built: one waits on the disk (fsyncs), the
// other on the CPU (schemas), and start-up is most of a short run's overhead.
func (e *env) newRun(f runFlags, firstPrompt string) (*run, error) {
	m, p, err := e.modelFor()
	if err != nil {
		return nil, err
	}
	provider, err := e.newProvider(p)
	if err != nil {
		return nil, err
	}
	var sess openedSession
	var sessErr error
	opened := make(chan struct{})
	go func() {
		defer close(opened)
		sess, sessErr = e.openSession(f, m.Name, firstPrompt)
	}()

	subs := &subAgents{env: e, provider: provider, model: agentModel(m)}
	todos := &builtin.TodoList{}
	reg, toolErr := e.tools(e.profile, builtin.Deps{Todos: todos, SubAgents: subs, Search: e.searchBackend()})
	system, _ := prompt.Build(prompt.Input{WorkDir: e.workDir, Trusted: e.trusted, Model: m.Name,
		Profile: e.profile.Name, ProfileAddition: e.profile.SystemPrompt, Now: time.Now()})
	<-opened
	if err := errors.Join(sessErr, toolErr); err != nil {
		sess.close()
		return nil, err
	}

	// Resolving the tools' validation schemas uses the CPU while the first model call
	// waits on the network; close waits for it, so no goroutine outlives the run.
	prepared := make(chan struct{})
	go func() {
		defer close(prepared)
		reg.Prepare()
	}()
	// An existing code-graph index is brought up to date while the conversation
	// starts; the run's end stops and waits for it.
	warmCtx, stopWarm := context.WithCancel(context.Background())
	warmed := make(chan struct{})
	go func() {
		defer close(warmed)
		if _, ok := reg.Get(agenttool.Name); ok {
			if err := e.codeGraph().Warm(warmCtx); err != nil && warmCtx.Err() == nil {
				slog.Warn("refresh the code graph", "err", err)
			}
		}
	}()
	middlewares := e.middlewares(e.profile, limits{maxTurns: f.maxTurns, maxPrice: f.maxPrice}, todos)
	_, hasGraph := reg.Get(agenttool.Name)
	if hasGraph {
		// A write, an edit or a command may change the sources: the index is
		// refreshed in the background before the next question needs it.
		middlewares = append(middlewares, agenttool.RefreshAfterChanges(e.codeGraph(), func(name string) bool {
			t, ok := reg.Get(name)
			return ok && !t.Info().ReadOnly
		}))
	}
	r := &run{model: m.Name, warnings: sess.warnings, close: func() {
		stopWarm()
		if hasGraph {
			e.codeGraph().Stop()
		}
		<-prepared
		<-warmed
		sess.close()
	}}
	opts := agent.Options{
		Provider: provider, Model: agentModel(m), Tools: reg, Policy: e.policy(e.profile),
		Middlewares:  middlewares,
		SystemPrompt: system, History: sess.history, Stats: sess.stats,
		CompactKeepTurns: e.cfg.Compaction.KeepRecentTurns,
	}
	if sess.log != nil {
		r.sessionID = sess.log.ID()
		subs.store, subs.parentID = e.sessionStore(), r.sessionID
		opts.Log, opts.SessionID = sessionLog{log: sess.log}, r.sessionID
	}
	a, err := agent.New(opts)
	if err != nil {
		r.close()
		return nil, err
	}
	subs.parent = func() *agent.Agent { return a }
	r.agent = a
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

// openSession creates a session, or opens the one --continue or --resume names.
func (e *env) openSession(f runFlags, model, firstPrompt string) (openedSession, error) {
	if !e.cfg.Session.Enabled {
		return openedSession{}, nil
	}
	store := e.sessionStore()
	if !f.cont && f.resume == "" {
		// The title is known now: setting it here saves a meta.json rewrite on the
		// first append.
		sl, err := store.Create(session.Meta{Cwd: e.workDir, Model: model, Profile: e.profile.Name, Title: session.Title(firstPrompt)})
		return openedSession{log: sl}, err
	}
	ref := f.resume
	if f.cont {
		var err error
		if ref, err = store.Latest(e.workDir); err != nil {
			return openedSession{}, err
		}
	}
	sl, history, err := store.Open(ref)
	if err != nil {
		return openedSession{}, err
	}
	meta := sl.Meta()
	return openedSession{log: sl, history: history, stats: agent.Stats{Usage: meta.Usage, Cost: meta.Cost}, warnings: sl.Warnings()}, nil
}

func (e *env) searchBackend() builtin.SearchBackend {
	if e.cfg.WebSearch.BaseURL == "" {
		return nil
	}
	return &builtin.SearXNG{BaseURL: e.cfg.WebSearch.BaseURL}
}
