package app

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/acp"
	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/config"
)

// acpFlags are the flags of `albert-code acp` and of albert-acp.
type acpFlags struct {
	agent, model string
	trust, setup bool
}

// newACPCmd reads the editor's messages from stdin (the root command's, which
// cobra does not carry).
func newACPCmd(fac *cmdutil.Factory) *cobra.Command {
	var f acpFlags
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
			if f.setup {
				return runACPSetup(cmd.Context(), fac, f)
			}
			return runACP(cmd.Context(), fac, f, setupCommand(cmd))
		},
	}
	addACPFlags(cmd, &f)
	return cmd
}

func addACPFlags(cmd *cobra.Command, f *acpFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.agent, "agent", "", "agent profile new sessions start with")
	fl.StringVar(&f.model, "model", "", "model new sessions start with")
	fl.BoolVar(&f.trust, "trust", false, "trust every folder the editor opens a session in, for this run")
	fl.BoolVar(&f.setup, "setup", false, "choose a provider and model and save the API key in this terminal, then exit")
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

// MainACP is albert-acp's whole program: `albert-code acp` under its own name.
func MainACP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	exportDotenvProxies()
	cmd := newACPCmd(cmdutil.New(Version(), &cmdutil.IOStreams{In: stdin, Out: stdout, ErrOut: stderr}))
	cmd.Use = "albert-acp"
	cmd.Version = Version()
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	if err := cmd.Execute(); err != nil {
		_, _ = io.WriteString(stderr, "albert-acp: "+err.Error()+"\n")
		return ExitError
	}
	return ExitOK
}

func runACP(ctx context.Context, fac *cmdutil.Factory, f acpFlags, setup []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if home, err := fac.HomeDir(); err == nil {
		closeLog := openLogFile(home)
		defer closeLog()
	}
	// Warnings and errors also go to stderr, where editors show an agent's log.
	logger := slog.New(fanout{slog.Default().Handler(), slog.NewTextHandler(fac.IO.ErrOut, &slog.HandlerOptions{Level: slog.LevelWarn})})
	slog.SetDefault(logger)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ov := config.Overrides{Agent: f.agent, Model: f.model}
	err := acp.Serve(ctx, fac.IO.In, fac.IO.Out, acp.Options{
		Version:      fac.Version,
		Logger:       logger,
		SetupCommand: setup,
		LoadEnv: func(cwd string) (*agentenv.Env, error) {
			e, err := fac.LoadEnv(cwd, ov, f.trust)
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

// fanout sends each record to every handler that takes its level.
type fanout []slog.Handler

func (f fanout) Enabled(ctx context.Context, l slog.Level) bool {
	for _, h := range f {
		if h.Enabled(ctx, l) {
			return true
		}
	}
	return false
}

func (f fanout) Handle(ctx context.Context, r slog.Record) error {
	for _, h := range f {
		if h.Enabled(ctx, r.Level) {
			_ = h.Handle(ctx, r.Clone())
		}
	}
	return nil
}

func (f fanout) WithAttrs(as []slog.Attr) slog.Handler {
	out := make(fanout, len(f))
	for i, h := range f {
		out[i] = h.WithAttrs(as)
	}
	return out
}

func (f fanout) WithGroup(name string) slog.Handler {
	out := make(fanout, len(f))
	for i, h := range f {
		out[i] = h.WithGroup(name)
	}
	return out
}
