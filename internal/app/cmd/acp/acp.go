// Package acp is `albert-code acp` and albert-acp: the agent for an editor that
// speaks the Agent Client Protocol on this process's standard input and output,
// and --setup, the setup screen alone for an editor's terminal sign-in.
package acp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/acp"
	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/app/setup"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/tui/dialog"
	"github.com/etalab-ia/albert-code/internal/tui/render"
)

// Options are the flags of `albert-code acp` and of albert-acp.
type Options struct {
	f            *cmdutil.Factory
	Agent, Model string
	// Trust trusts every folder the editor opens a session in, for this run.
	Trust bool
	// Setup shows the setup screen and exits instead of serving.
	Setup bool
	// SetupCommand is the command line that runs this program's setup, offered to
	// the editor for its terminal sign-in; nil when the executable is unknown.
	SetupCommand []string
}

// NewCmdACP is `acp` (albert-acp renames it); runF replaces the server.
func NewCmdACP(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{f: f}
	cmd := &cobra.Command{
		Use:   "acp",
		Short: "Speak the Agent Client Protocol on stdin/stdout, for editors such as Zed",
		Long: `acp runs the agent for an editor that speaks the Agent Client Protocol (version 1)
over this process's standard input and output. Standard output carries protocol
messages only; logs go to standard error and to ~/.albert-code/logs/albert-code.log.

Zed, in settings.json:
  "agent_servers": { "Albert Code": { "command": "albert-acp", "args": [] } }

--setup opens the setup screen (provider, model, API key) in this terminal, saves
the answer and exits; editors run it for a user who has no key yet.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.SetupCommand = setupCommand(cmd)
			if runF != nil {
				return runF(opts)
			}
			if opts.Setup {
				return runSetup(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Agent, "agent", "", "agent profile new sessions start with")
	fl.StringVar(&opts.Model, "model", "", "model new sessions start with")
	fl.BoolVar(&opts.Trust, "trust", false, "trust every folder the editor opens a session in, for this run")
	fl.BoolVar(&opts.Setup, "setup", false, "choose a provider and model and save the API key in this terminal, then exit")
	return cmd
}

// setupCommand is the command line that runs this program's setup: the editor
// runs it in a terminal for Zed's _meta "terminal-auth". Nil when the
// executable cannot be found, and then only the API key method is offered.
func setupCommand(cmd *cobra.Command) []string {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	if cmd.Name() == "acp" { // albert-code acp, not albert-acp
		return []string{exe, "acp", "--setup"}
	}
	return []string{exe, "--setup"}
}

func run(ctx context.Context, opts *Options) error {
	f := opts.f
	if ctx == nil {
		ctx = context.Background()
	}
	if home, err := f.HomeDir(); err == nil {
		closeLog := cmdutil.OpenLogFile(home)
		defer closeLog()
	}
	// Warnings and errors also go to stderr, where editors show an agent's log.
	logger := slog.New(fanout{slog.Default().Handler(), slog.NewTextHandler(f.IO.ErrOut, &slog.HandlerOptions{Level: slog.LevelWarn})})
	slog.SetDefault(logger)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ov := config.Overrides{Agent: opts.Agent, Model: opts.Model}
	err := acp.Serve(ctx, f.IO.In, f.IO.Out, acp.Options{
		Version:      f.Version,
		Logger:       logger,
		SetupCommand: opts.SetupCommand,
		LoadEnv: func(cwd string) (*agentenv.Env, error) {
			e, err := f.LoadEnv(cwd, ov, opts.Trust)
			if err != nil {
				return nil, err
			}
			return e, nil
		},
	})
	if ctx.Err() != nil {
		return nil // a signal or the end of the editor's stream: a normal exit
	}
	return err
}

// errSetupCancelled ends `albert-acp --setup` with a failure: an editor that ran it
// for terminal authentication reads a non-zero exit as "no key yet".
var errSetupCancelled = errors.New("setup cancelled: nothing was saved; run `albert-acp --setup` again, or set ALBERT_API_KEY in the environment the editor starts albert-acp with")

// errSetupNeedsTerminal refuses a setup whose input is a pipe or a file: the screen
// reads keys, one at a time.
var errSetupNeedsTerminal = errors.New("--setup needs a terminal to type in: run it in one (an editor's terminal sign-in does), or set ALBERT_API_KEY in the environment the editor starts albert-acp with")

// runSetup is `albert-acp --setup`: the setup screen of `albert-code --setup`
// alone (provider, model, API key, saved where every face reads them), then exit.
// Editors run it in a terminal to authenticate a user who has no key yet.
func runSetup(ctx context.Context, opts *Options) error {
	f := opts.f
	if ctx == nil {
		ctx = context.Background()
	}
	if !f.IO.InIsTerminal() {
		return errSetupNeedsTerminal
	}
	wd, err := f.WorkDir()
	if err != nil {
		return err
	}
	e, err := f.LoadEnv(wd, config.Overrides{Agent: opts.Agent, Model: opts.Model}, opts.Trust)
	if err != nil {
		return err
	}
	st := setup.FromEnv(e, f.LookupEnv)
	home := e.Config.Home
	e.Close()

	m := &setupScreen{dlg: dialog.NewSetup(render.NewTheme(f.ColorWanted()), st.Providers, st.Current), save: st.Save}
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(f.IO.In), tea.WithOutput(f.IO.Out))
	if _, err := p.Run(); err != nil {
		return fmt.Errorf("setup screen: %w", err)
	}
	if !m.saved {
		return errSetupCancelled
	}
	_, err = fmt.Fprintf(f.IO.Out, "Setup saved (the key in %s). Go back to the editor: its next session uses it.\n", filepath.Join(home, ".env"))
	return err
}
