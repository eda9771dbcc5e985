// Package serve is `albert-code serve`: it puts the agent on the network (HTTP API,
// OpenAI-compatible endpoint, MCP server, web console, Telegram bot, cron
// scheduler). build assembles the whole stack from the configuration; serve runs
// it until a signal.
package serve

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"syscall"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/serve/adapter"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/native"
	"github.com/etalab-ia/albert-code/internal/serve/problems"
)

// Options are `serve`'s.
type Options struct {
	IO *cmdutil.IOStreams
	// Source is where the settings come from: the environment, and the flags given.
	Source serveconfig.Source
	// Home is albert-code's home: the run store, the bot's files, cron's history.
	Home func() (string, error)
	// UserAgent names this program to model servers and MCP clients.
	UserAgent string
}

// NewCmdServe is `serve`; runF replaces the server.
func NewCmdServe(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Home: f.HomeDir, UserAgent: f.UserAgent()}
	values := map[string]*string{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Put the agent on the network: HTTP API (/run, /files), OpenAI-compatible endpoint, MCP server",
		Long: `albert-code serve runs the agent behind an HTTP API. Every setting is an
environment variable (ALBERT_CODE_API_MODE=1 turns the API on) or the flag below;
docs/serve.md lists them, with the original aicodebox names read as aliases.

  ALBERT_CODE_API_MODE=1 ALBERT_CODE_API_MODE_TOKEN=$(openssl rand -hex 32) albert-code serve
  albert-code serve --api --api-port 9000 --workspace ./work`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Source = serveconfig.Source{LookupEnv: f.LookupEnv, Environ: os.Environ(), Flags: map[string]string{}}
			for name, v := range values {
				if cmd.Flags().Changed(name) {
					opts.Source.Flags[name] = *v
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	for _, s := range serveconfig.Settings {
		values[s.Flag] = cmd.Flags().String(s.Flag, "", s.Help+" ("+s.Var()+")")
		if s.Switch {
			cmd.Flags().Lookup(s.Flag).NoOptDefVal = "1" // --api alone turns the mode on
		}
	}
	return cmd
}

// run loads the configuration, reporting every problem at once, builds the stack
// and serves until SIGINT or SIGTERM.
func run(ctx context.Context, opts *Options) error {
	// Signals are taken from the start: a SIGTERM while serve is still starting
	// (a service manager's stop) ends it cleanly instead of killing it.
	ctx, stopSignals := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	logger := slog.New(slog.NewTextHandler(opts.IO.ErrOut, nil))
	c, b, err := loadConfig(opts.Source, opts.IO.ErrOut, opts.UserAgent)
	if err != nil {
		return err
	}
	home, err := opts.Home()
	if err != nil {
		return cmdutil.Failed(err)
	}
	s, err := build(ctx, c, b, home, opts.UserAgent, logger)
	if err != nil {
		return err
	}
	defer s.close()
	return s.serve(ctx)
}

// loadConfig reads and checks the configuration and builds the backend it names.
// Warnings go to stderr; problems, all of them, make a usage error.
func loadConfig(src serveconfig.Source, stderr io.Writer, userAgent string) (serveconfig.Config, backend.Backend, error) {
	c, warnings, ps := serveconfig.Parse(src)
	var b backend.Backend
	var models []string
	if !slices.ContainsFunc(ps, func(p problems.Problem) bool { return p.Where == c.Source("ADAPTER") }) {
		var err error
		b, models, err = buildBackend(c, userAgent)
		if err != nil {
			ps = append(ps, problems.Problem{Where: c.Source("ADAPTER"), Message: err.Error()})
			// The adapter's problem is reported; its models are unknown, not missing.
			models = []string{""}
		}
	}
	sys := serveconfig.System{
		LookPath:      exec.LookPath,
		IsDir:         func(p string) bool { st, err := os.Stat(p); return err == nil && st.IsDir() },
		AdapterModels: models,
	}
	ps = append(ps, c.Validate(sys, ps)...)
	for _, w := range warnings {
		fmt.Fprintln(stderr, "albert-code: warning:", w)
	}
	if len(ps) > 0 {
		return c, nil, cmdutil.UsageError("%v", serveconfig.Refusal(ps))
	}
	return c, b, nil
}

// buildBackend makes the backend c names: the agent in-process by default, else a
// CLI adapter; and the models it offers.
func buildBackend(c serveconfig.Config, userAgent string) (backend.Backend, []string, error) {
	if c.Adapter == serveconfig.DefaultAdapter {
		n := native.New(native.Options{
			UserAgent: userAgent, Timeout: c.Timeout, IdleTimeout: c.IdleTimeout, ConfigDir: c.Workspace,
		})
		return n, n.Models(), nil
	}
	a, err := adapter.Resolve(c.Adapter, c.AgentBinary)
	if err != nil {
		return nil, nil, err
	}
	if cl, ok := a.(*claude.Adapter); ok {
		// As root, Claude Code runs only when told it is sandboxed: by serve's OS
		// sandbox, or by ALBERT_CODE_SANDBOXED=1 from a container image that is one.
		cl.Sandboxed = c.AdapterSandbox != "" || c.Sandboxed
		if err := cl.CheckRoot(); err != nil {
			return nil, nil, err
		}
	}
	return a, cli.Models(a), nil
}
