package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/serve/adapter"
	"github.com/etalab-ia/albert-code/internal/serve/api"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	mcpserve "github.com/etalab-ia/albert-code/internal/serve/mcp"
	"github.com/etalab-ia/albert-code/internal/serve/native"
	"github.com/etalab-ia/albert-code/internal/serve/openai"
	"github.com/etalab-ia/albert-code/internal/serve/problems"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/telegram"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// Server timings; judgement. A shutdown waits up to 30 s for runs to stop (the
// supervisor's 5 s grace per process group, with room); ephemeral workspaces older
// than an hour belong to a server that crashed. The connections' own limits are
// api.ConnLimits'.
const (
	shutdownWait    = 30 * time.Second
	ephemeralMaxAge = time.Hour
)

func newServeCmd() *cobra.Command {
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
			src := serveconfig.OS()
			src.Flags = map[string]string{}
			for name, v := range values {
				if cmd.Flags().Changed(name) {
					src.Flags[name] = *v
				}
			}
			return runServe(cmd, src)
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

// runServe loads the configuration, reporting every problem at once, builds the
// backend, the run store and the API, and serves until SIGINT or SIGTERM.
func runServe(cmd *cobra.Command, src serveconfig.Source) error {
	// Signals are taken from the start: a SIGTERM while serve is still starting
	// (a service manager's stop) ends it cleanly instead of killing it.
	ctx, stopSignals := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	stderr := cmd.ErrOrStderr()
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	c, backend, err := loadServeConfig(src, stderr)
	if err != nil {
		return err
	}
	if err := checkServeModels(backend, availableModelUses(c.AvailableModels, c.Source("AVAILABLE_MODELS"))); err != nil {
		return err
	}
	home, err := config.HomeDir(os.LookupEnv)
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	store, err := openServeStore(ctx, c, home, logger)
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	defer store.Close()
	defer store.keepAlive(ctx, logger)()
	killLeftovers(store.leftovers, logger)
	if sb, ok := backend.(interface{ SandboxNotice() string }); ok {
		if n := sb.SandboxNotice(); n != "" {
			logger.Warn("sandbox: " + n)
		}
	}
	if c.Adapter != serveconfig.DefaultAdapter && c.AdapterSandbox == "" {
		logger.Info("the CLI agent runs unconfined (ALBERT_CODE_ADAPTER_SANDBOX=off), under the sandbox's guardian")
	}
	if q, ok := backend.(interface {
		QuotaWarnings(context.Context) []string
	}); ok {
		for _, w := range q.QuotaWarnings(ctx) {
			logger.Warn("quota: " + w)
		}
	}
	root, err := workspace.NewRoot(c.Workspace)
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	if n, err := workspace.Sweep("", ephemeralMaxAge); err != nil || n > 0 {
		logger.Info("swept ephemeral workspaces left by a crash", "removed", n, "err", err)
	}
	locks := workspace.NewLocks(c.QueueBound)
	if store.pg != nil {
		locks.Across(store.pg.LockWorkspace)
	}
	srv, err := api.New(api.Options{
		Backend: backend, Store: store, Root: root, Tokens: c.API.Tokens, MaxBody: c.API.MaxBody,
		Locks:  locks,
		Runner: runner.New(runnerOptions(c)),
		Logger: logger,
	})
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}

	// The MCP server runs its prompts through srv (same runner, locks and run
	// store), even when the API itself is not served.
	var mcpSrv *mcpserve.Server
	if c.MCP.Enabled {
		mcpSrv, err = mcpserve.New(mcpserve.Options{Runs: srv, Root: root, Tokens: c.MCP.Tokens,
			AllowedHosts: c.MCP.AllowedHosts, AllowedOrigins: c.MCP.AllowedOrigins, MaxBody: c.API.MaxBody,
			Version: userAgent(), Logger: logger})
		if err != nil {
			return &exitError{code: ExitError, err: err}
		}
		defer mcpSrv.Close()
	}
	tgBot, err := newServeTelegram(c, home, backend, root, srv.Locks(), logger)
	if err != nil {
		return err
	}
	// With the bot in this process, cron notifies through its sender: one
	// client, so both wait out the same flood-control limits.
	var notifier cron.Notifier
	if tgBot != nil {
		notifier = tgBot.Notifier()
	}
	var claims cron.TickClaimer
	if store.pg != nil {
		claims = store.pg
	}
	sched, err := newServeCron(c, home, backend, root, srv.Locks(), notifier, claims, logger)
	if err != nil {
		return err
	}

	var listeners []listener
	if c.API.Enabled {
		mux := http.NewServeMux()
		srv.Register(mux)
		// Other surfaces served on the API's port mount here, one line each, sharing
		// the API's tokens (srv.Authorize), workspace locks (srv.Locks), metrics
		// registry (srv.Registry) and backend:
		//   - the OpenAI-compatible endpoint, internal/serve/openai;
		//   - the MCP server (/mcp, its own tokens), unless it has a port of its own.
		mounts := []func(*http.ServeMux){
			openai.New(openai.Options{Backend: backend, Runner: runner.New(runnerOptions(c)), Root: root, Locks: srv.Locks(), Models: c.AvailableModels, Authorize: openai.AuthorizeWith(srv.Authorize), MaxBody: c.API.MaxBody, Timeout: c.Timeout, Logger: logger}).Mount,
		}
		if mcpSrv != nil && c.MCP.Port == 0 {
			mounts = append(mounts, mcpSrv.Mount)
		}
		// The web console (/ui), internal/serve/console, on the API's tokens.
		if mount, err := newServeConsole(c, store, root, srv, sched, backend, logger); err != nil {
			return &exitError{code: ExitError, err: err}
		} else if mount != nil {
			mounts = append(mounts, mount)
		}
		for _, mount := range mounts {
			mount(mux)
		}
		ln, err := net.Listen("tcp", net.JoinHostPort(c.API.Host, strconv.Itoa(c.API.Port)))
		if err != nil {
			return &exitError{code: ExitError, err: fmt.Errorf("%s: listen on port %d: %w", c.Source("API_MODE_PORT"), c.API.Port, err)}
		}
		listeners = append(listeners, listener{name: "API", ln: ln, handler: mux})
	}
	if mcpSrv != nil && c.MCP.Port != 0 {
		// On its own port the MCP server answers at / (the original's URL) and /mcp.
		mux := http.NewServeMux()
		mux.Handle("/", mcpSrv.Handler())
		ln, err := net.Listen("tcp", net.JoinHostPort(c.API.Host, strconv.Itoa(c.MCP.Port)))
		if err != nil {
			for _, l := range listeners {
				l.ln.Close()
			}
			return &exitError{code: ExitError, err: fmt.Errorf("%s: listen on port %d: %w", c.Source("MCP_MODE_PORT"), c.MCP.Port, err)}
		}
		listeners = append(listeners, listener{name: "MCP", ln: ln, handler: mux})
	}
	var cronWG sync.WaitGroup
	if sched != nil {
		// On a stop, running jobs get the scheduler's grace period, then their
		// process groups are stopped.
		cronWG.Go(func() {
			if err := sched.Run(ctx); err != nil {
				logger.Error("cron: scheduler", "err", err)
			}
		})
	}
	if tgBot != nil {
		// Like the scheduler: on a stop, runs get the bot's grace period, then
		// their process groups are stopped.
		cronWG.Go(func() {
			store.runTelegram(ctx, tgBot, func() (*telegram.Bot, error) {
				return newServeTelegram(c, home, backend, root, srv.Locks(), logger)
			}, logger)
		})
	}
	limits := api.ConnLimits{KeepAliveTimeout: c.API.KeepAliveTimeout, BodyTimeout: c.API.BodyTimeout,
		MaxConnsPerClient: c.API.MaxConnsPerClient, Logger: logger}
	if c.API.MaxConnsPerClient == 0 {
		limits.MaxConnsPerClient = -1 // 0 in the configuration: no cap
	}
	err = serveUntilSignal(ctx, listeners, limits, srv, mcpSrv, store, logger, backend.Name())
	stopSignals()
	cronWG.Wait()
	return err
}

// listener is one port the server answers on.
type listener struct {
	name    string
	ln      net.Listener
	handler http.Handler
}

// loadServeConfig reads and checks the configuration and builds the backend it
// names. Warnings go to stderr; problems, all of them, make a usage error.
func loadServeConfig(src serveconfig.Source, stderr io.Writer) (serveconfig.Config, adapter.Backend, error) {
	c, warnings, ps := serveconfig.Parse(src)
	var backend adapter.Backend
	var models []string
	if !slices.ContainsFunc(ps, func(p problems.Problem) bool { return p.Where == c.Source("ADAPTER") }) {
		var err error
		backend, models, err = buildBackend(c)
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
		return c, nil, usageError("%v", serveconfig.Refusal(ps))
	}
	return c, backend, nil
}

// buildBackend makes the backend c names: the agent in-process by default, else a
// CLI adapter; and the models it offers.
func buildBackend(c serveconfig.Config) (adapter.Backend, []string, error) {
	if c.Adapter == serveconfig.DefaultAdapter {
		n := native.New(native.Options{
			UserAgent: userAgent(), Timeout: c.Timeout, IdleTimeout: c.IdleTimeout, ConfigDir: c.Workspace,
		})
		return n, n.Models(), nil
	}
	a, err := adapter.Resolve(c.Adapter, c.AgentBinary)
	if err != nil {
		return nil, nil, err
	}
	if cl, ok := a.(*adapter.Claude); ok {
		// As root, Claude Code runs only when told it is sandboxed: by serve's OS
		// sandbox, or by ALBERT_CODE_SANDBOXED=1 from a container image that is one.
		cl.Sandboxed = c.AdapterSandbox != "" || c.Sandboxed
		if err := cl.CheckRoot(); err != nil {
			return nil, nil, err
		}
	}
	return a, adapter.Models(a), nil
}

// serveUntilSignal serves on ln until ctx ends or SIGINT or SIGTERM arrives, then
// shuts down: runs are cancelled and their process groups stopped first, so the
// sync callers get their answers, then the HTTP server drains.
func serveUntilSignal(ctx context.Context, listeners []listener, limits api.ConnLimits, srv *api.Server, mcpSrv *mcpserve.Server, store runstore.Store, logger *slog.Logger, backend string) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	var wg sync.WaitGroup
	defer wg.Wait()
	cleanCtx, stopClean := context.WithCancel(ctx)
	defer stopClean()
	wg.Go(func() {
		runstore.Clean(cleanCtx, store, 0, func(n int, err error) {
			logger.Info("removed expired runs", "removed", n, "err", err)
		})
	})

	served := make(chan error, len(listeners))
	servers := make([]*http.Server, len(listeners))
	for i, l := range listeners {
		hs, ln := api.NewHTTPServer(l.handler, l.ln, limits)
		servers[i] = hs
		go func() { served <- hs.Serve(ln) }()
		logger.Info("albert-code serve: "+l.name+" listening", "addr", "http://"+l.ln.Addr().String(), "adapter", backend)
	}

	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-served:
	}
	logger.Info("albert-code serve: shutting down, cancelling runs")
	down, cancel := context.WithTimeout(context.Background(), shutdownWait)
	defer cancel()
	if err := srv.Shutdown(down); err != nil {
		logger.Warn("runs still stopping at shutdown", "err", err)
	}
	if mcpSrv != nil {
		mcpSrv.Close() // ends the MCP streams, which would hold the drain up
	}
	for _, hs := range servers {
		if err := hs.Shutdown(down); err != nil {
			logger.Warn("HTTP server shutdown", "err", err)
		}
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return &exitError{code: ExitError, err: fmt.Errorf("serve: %w", serveErr)}
	}
	logger.Info("albert-code serve: stopped")
	return nil
}

// runnerOptions are the CLI runner's settings from serve's configuration.
func runnerOptions(c serveconfig.Config) runner.Options {
	return runner.Options{Timeout: c.Timeout, IdleTimeout: c.IdleTimeout,
		Sandbox: sandbox.Mode(c.AdapterSandbox), Writable: c.AdapterWritable}
}
