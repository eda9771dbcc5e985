// Package root is albert-code's root command: the agent itself, in the terminal UI
// or headless with -p, in one folder entered once (--workdir), with every family
// of subcommands under it.
package root

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/agentenv"
	acpcmd "github.com/etalab-ia/albert-code/internal/app/cmd/acp"
	configcmd "github.com/etalab-ia/albert-code/internal/app/cmd/config"
	croncmd "github.com/etalab-ia/albert-code/internal/app/cmd/cron"
	graphcmd "github.com/etalab-ia/albert-code/internal/app/cmd/graph"
	migratecmd "github.com/etalab-ia/albert-code/internal/app/cmd/migrate"
	quotacmd "github.com/etalab-ia/albert-code/internal/app/cmd/quota"
	servecmd "github.com/etalab-ia/albert-code/internal/app/cmd/serve"
	"github.com/etalab-ia/albert-code/internal/app/cmd/sessions"
	trustcmd "github.com/etalab-ia/albert-code/internal/app/cmd/trust"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/headless"
	"github.com/etalab-ia/albert-code/internal/mention"
	"github.com/etalab-ia/albert-code/internal/session"
)

// runFlags are the flags of the agent itself (the root command).
type runFlags struct {
	sandbox       string
	print         bool
	output        string
	maxTurns      int
	maxPrice      float64
	enabledTools  []string
	disabledTools []string
	agent         string
	model         string
	baseURL       string
	trust         bool
	cont          bool
	resume        string
	workdir       string
	setup         bool
	apiKey        string
}

// NewCmdRoot is the root command, with every subcommand.
func NewCmdRoot(fac *cmdutil.Factory) *cobra.Command {
	var f runFlags
	var originalPrompt *string
	root := &cobra.Command{
		Use:   "albert-code [PROMPT]",
		Short: "A coding agent for the Albert API and any OpenAI-compatible model server",
		Long: `albert-code reads and edits code, runs commands and answers questions about a
repository, driving a model through the Albert API or any OpenAI-compatible server.

  albert-code                                    open the interactive terminal UI
  albert-code --resume                           pick a saved session of this folder to resume
  albert-code -p "fix the failing test"          run one prompt and print the answer
  echo "summarise README.md" | albert-code -p    the prompt may come on stdin
  albert-code -p --output json "..."             one JSON result for scripts`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Words after the flags are the prompt, not subcommands.
		Args:    cobra.ArbitraryArgs,
		Version: fac.Version,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAgent(cmd, fac, f, applyOriginalFlags(cmd, &f, *originalPrompt, args))
		},
	}
	fl := root.Flags()
	originalPrompt = addOriginalFlags(fl)
	fl.BoolVarP(&f.print, "print", "p", false, "run the prompt without the interactive UI and print the result (headless)")
	fl.StringVar(&f.output, "output", "text", "headless output: text, json or stream-json")
	fl.IntVar(&f.maxTurns, "max-turns", 0, "stop after this many model calls (0: no limit)")
	fl.Float64Var(&f.maxPrice, "max-price", 0, "stop once the session has cost this much, in EUR (0: no limit)")
	fl.StringSliceVar(&f.enabledTools, "enabled-tools", nil, "only offer these tools (names, globs such as 'web_*', or 're:' regular expressions)")
	fl.StringSliceVar(&f.disabledTools, "disabled-tools", nil, "never offer these tools (same patterns as --enabled-tools)")
	fl.StringVar(&f.agent, "agent", "", "agent profile: default, plan, accept-edits, auto-approve or your own")
	fl.StringVar(&f.model, "model", "", "model to use (a name, alias or wire name from the configuration)")
	fl.StringVar(&f.baseURL, "base-url", "", "override the active provider's base URL")
	fl.BoolVar(&f.trust, "trust", false, "trust the working directory for this run (file-changing tools, project config)")
	fl.BoolVarP(&f.cont, "continue", "c", false, "continue the latest session of this directory")
	// Without an ID, --resume opens the picker; "--resume ID" still works since
	// runAgent takes the first argument as the ID.
	fl.Var(optionalID{&f.resume}, "resume", "resume the session `ID` (or unique prefix); without an ID the UI lists the sessions")
	fl.Lookup("resume").NoOptDefVal = optionalIDAbsent
	fl.BoolVar(&f.setup, "setup", false, "open the setup screen (provider, model and API key) before the session")
	fl.StringVar(&f.workdir, "workdir", "", "work in this directory instead of the current one")
	fl.StringVar(&f.sandbox, "sandbox", "", "on (the default) or off: confine the commands tools start with the OS sandbox")
	fl.StringVar(&f.apiKey, "api-key", "", "save this key for the active model's provider in ~/.albert-code/.env and use it")
	root.MarkFlagsMutuallyExclusive("continue", "resume")
	root.SetVersionTemplate("albert-code {{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cmdutil.UsageError("%v", err) })

	root.AddCommand(newVersionCmd(fac), configcmd.NewCmdConfig(fac), sessions.NewCmdSessions(fac), trustcmd.NewCmdTrust(fac, nil), graphcmd.NewCmdGraph(fac), servecmd.NewCmdServe(fac, nil))
	root.AddCommand(acpcmd.NewCmdACP(fac, nil))
	root.AddCommand(quotacmd.NewCmdQuota(fac, nil))
	root.AddCommand(croncmd.NewCmdCron(fac))
	root.AddCommand(migratecmd.NewCmdMigrate(fac, nil))
	return root
}

func runAgent(cmd *cobra.Command, fac *cmdutil.Factory, f runFlags, args []string) error {
	format, err := headless.ParseFormat(f.output)
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	if f.resume == pickSession && len(args) > 0 {
		f.resume, args = args[0], args[1:]
	}
	if err := applySandboxFlag(f.sandbox); err != nil {
		return err
	}
	ws, err := enterWorkspace(cmd, fac, f)
	if err != nil {
		return err
	}
	if cmd.Flags().Changed("api-key") {
		if err := saveAPIKey(fac, ws, f.apiKey); err != nil {
			return err
		}
	}
	if !f.print {
		return runTUI(cmd, fac, ws, f, strings.TrimSpace(strings.Join(args, " ")))
	}
	return runHeadless(cmd.Context(), fac, ws, f, format, args)
}

// runHeadless is -p: one prompt, from the arguments or stdin, run to its end and
// printed in format; how it ended is the exit code.
func runHeadless(ctx context.Context, fac *cmdutil.Factory, ws agentWorkspace, f runFlags, format headless.Format, args []string) error {
	if f.resume == pickSession {
		return cmdutil.UsageError("--resume needs a session ID with -p (albert-code sessions list shows them)")
	}
	text, err := readPrompt(args, fac.IO)
	if err != nil {
		return err
	}
	e, err := ws.load(fac)
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	defer e.Close() // stops the MCP servers once the run is closed
	closeLog := cmdutil.OpenLogFile(e.Config.Home)
	defer closeLog()
	run, err := e.NewRun(agentenv.RunOptions{
		Limits:   agentenv.Limits{MaxTurns: f.maxTurns, MaxPrice: f.maxPrice},
		Continue: f.cont, Resume: f.resume, FirstPrompt: text,
	})
	if err != nil {
		if errors.Is(err, config.ErrMissingAPIKey) || errors.Is(err, session.ErrNotFound) ||
			errors.Is(err, session.ErrNoSession) || errors.Is(err, session.ErrAmbiguous) {
			return cmdutil.UsageError("%v", err)
		}
		return cmdutil.Failed(err)
	}
	defer run.Close()
	for _, w := range run.Warnings {
		fmt.Fprintln(fac.IO.ErrOut, "albert-code: warning:", w)
	}
	for _, w := range e.QuotaWarnings(ctx) {
		fmt.Fprintln(fac.IO.ErrOut, "albert-code:", w)
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Files named with @path go in with the prompt, as in the UI.
	res, err := headless.Run(ctx, run.Agent, mention.Expand(text, e.WorkDir), headless.Options{
		Format: format, SessionID: run.SessionID, Model: run.Model, ModelName: e.ModelName,
		Stdout: fac.IO.Out, Stderr: fac.IO.ErrOut,
	})
	if err != nil {
		return cmdutil.Failed(err)
	}
	return exitFor(res)
}

// agentWorkspace is where the agent runs and how its configuration loads there,
// the same for the UI and -p.
type agentWorkspace struct {
	dir       string
	overrides config.Overrides
	// trust is --trust: the folder is trusted for this run only.
	trust bool
}

// enterWorkspace moves into --workdir (the one os.Chdir of the UI and -p) and
// reads the flags that shape the configuration.
func enterWorkspace(cmd *cobra.Command, fac *cmdutil.Factory, f runFlags) (agentWorkspace, error) {
	wd, err := fac.EnterWorkDir(f.workdir)
	if err != nil {
		return agentWorkspace{}, err
	}
	ov := config.Overrides{Model: f.model, BaseURL: f.baseURL, Agent: f.agent}
	if cmd.Flags().Changed("enabled-tools") {
		ov.EnabledTools = f.enabledTools
	}
	if cmd.Flags().Changed("disabled-tools") {
		ov.DisabledTools = f.disabledTools
	}
	return agentWorkspace{dir: wd, overrides: ov, trust: f.trust}, nil
}

func (w agentWorkspace) load(fac *cmdutil.Factory) (*agentenv.Env, error) {
	return fac.LoadEnv(w.dir, w.overrides, w.trust)
}

// exitFor maps how a run ended to the documented exit codes. The error itself was
// already reported: on stderr in text mode, in the result object in the JSON modes.
func exitFor(res agent.Result) error {
	switch res.Stop {
	case agent.StopEndTurn:
		return nil
	case agent.StopMaxTurns, agent.StopMaxPrice:
		return &cmdutil.Exit{Code: cmdutil.ExitLimit}
	case agent.StopCancelled:
		return &cmdutil.Exit{Code: cmdutil.ExitCancelled}
	}
	return &cmdutil.Exit{Code: cmdutil.ExitError}
}

// readPrompt takes the prompt from the arguments, or from stdin when none is given and
// stdin is not a terminal. No TTY is needed: CI pipes the prompt in.
func readPrompt(args []string, streams *cmdutil.IOStreams) (string, error) {
	text := strings.TrimSpace(strings.Join(args, " "))
	if text != "" {
		return text, nil
	}
	if streams.InIsTerminal() {
		return "", cmdutil.UsageError("no prompt: give one as an argument (albert-code -p \"...\") or on stdin")
	}
	data, err := io.ReadAll(streams.In)
	if err != nil {
		return "", fmt.Errorf("read prompt from stdin: %w", err)
	}
	if text = strings.TrimSpace(string(data)); text == "" {
		return "", cmdutil.UsageError("no prompt: give one as an argument (albert-code -p \"...\") or on stdin")
	}
	return text, nil
}

// applySandboxFlag passes --sandbox to the configuration through its environment
// variable, which every later load (and the ACP and serve faces) reads.
func applySandboxFlag(v string) error {
	switch strings.ToLower(v) {
	case "":
		return nil
	case "on", "off":
		return os.Setenv(config.EnvSandbox, strings.ToLower(v))
	}
	return cmdutil.UsageError("--sandbox %q: want on or off", v)
}
