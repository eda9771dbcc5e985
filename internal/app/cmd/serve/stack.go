package serve

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/serve/api"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	mcpserve "github.com/etalab-ia/albert-code/internal/serve/mcp"
	"github.com/etalab-ia/albert-code/internal/serve/openai"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/telegram"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// ephemeralMaxAge: ephemeral workspaces older than an hour belong to a server that
// crashed; judgement.
const ephemeralMaxAge = time.Hour

// stack is everything serve runs, built and not yet serving: the run store and
// the cluster around it, one runner for every surface, the API (which the MCP
// server's prompts and the console also go through), the bot, the scheduler, and
// the ports, already listening.
type stack struct {
	config  serveconfig.Config
	backend backend.Backend
	home    string
	logger  *slog.Logger

	store         *runStore
	stopKeepAlive func()
	root          *workspace.Root
	runner        *runner.Runner
	api           *api.Server
	mcp           *mcpserve.Server
	bot           *telegram.Bot
	scheduler     *cron.Scheduler
	listeners     []listener
	limits        api.ConnLimits
}

// listener is one port the server answers on.
type listener struct {
	name    string
	ln      net.Listener
	handler http.Handler
}

// build assembles the stack c describes around backend, in the order a start
// needs: the models checked, the run store opened (with what a crash left
// behind cleaned up), the workspaces, the API and every surface mounted on it,
// and its ports listening. What it built is closed again when a step fails.
func build(ctx context.Context, c serveconfig.Config, backend backend.Backend, home, userAgent string, logger *slog.Logger) (s *stack, err error) {
	if err := checkServeModels(backend, availableModelUses(c.AvailableModels, c.Source("AVAILABLE_MODELS"))); err != nil {
		return nil, err
	}
	s = &stack{config: c, backend: backend, home: home, logger: logger, stopKeepAlive: func() {},
		runner: runner.New(runnerOptions(c))}
	defer func() {
		if err != nil {
			s.close()
			s = nil
		}
	}()
	if s.store, err = openRunStore(ctx, c, home, logger); err != nil {
		return s, cmdutil.Failed(err)
	}
	s.stopKeepAlive = s.store.keepAlive(ctx, logger)
	killLeftovers(s.store.leftovers, logger)
	s.logNotices(ctx)
	if s.root, err = workspace.NewRoot(c.Workspace); err != nil {
		return s, cmdutil.Failed(err)
	}
	if n, err := workspace.Sweep("", ephemeralMaxAge); err != nil || n > 0 {
		logger.Info("swept ephemeral workspaces left by a crash", "removed", n, "err", err)
	}
	locks := workspace.NewLocks(c.QueueBound)
	if s.store.pg != nil {
		locks.Across(s.store.pg.LockWorkspace)
	}
	s.api, err = api.New(api.Options{
		Backend: backend, Store: s.store, Root: s.root, Tokens: c.API.Tokens, MaxBody: c.API.MaxBody,
		Locks: locks, Runner: s.runner, Logger: logger,
	})
	if err != nil {
		return s, cmdutil.Failed(err)
	}
	// The MCP server runs its prompts through the API (same runner, locks and run
	// store), even when the API itself is not served.
	if c.MCP.Enabled {
		s.mcp, err = mcpserve.New(mcpserve.Options{Runs: s.api, Root: s.root, Tokens: c.MCP.Tokens,
			AllowedHosts: c.MCP.AllowedHosts, AllowedOrigins: c.MCP.AllowedOrigins, MaxBody: c.API.MaxBody,
			Version: userAgent, Logger: logger})
		if err != nil {
			return s, cmdutil.Failed(err)
		}
	}
	if s.bot, err = newServeTelegram(c, home, backend, s.runner, s.root, s.api.Locks(), logger); err != nil {
		return s, err
	}
	// With the bot in this process, cron notifies through its sender: one client,
	// so both wait out the same flood-control limits.
	var notifier cron.Notifier
	if s.bot != nil {
		notifier = s.bot.Notifier()
	}
	var claims cron.TickClaimer
	if s.store.pg != nil {
		claims = s.store.pg
	}
	if s.scheduler, err = newServeCron(c, home, backend, s.runner, s.root, s.api.Locks(), notifier, claims, logger); err != nil {
		return s, err
	}
	if err := s.listen(); err != nil {
		return s, err
	}
	s.limits = api.ConnLimits{KeepAliveTimeout: c.API.KeepAliveTimeout, BodyTimeout: c.API.BodyTimeout,
		MaxConnsPerClient: c.API.MaxConnsPerClient, Logger: logger}
	if c.API.MaxConnsPerClient == 0 {
		s.limits.MaxConnsPerClient = -1 // 0 in the configuration: no cap
	}
	return s, nil
}

// logNotices says at start what the backend wants known: how its agents are
// confined, and the quotas already running low.
func (s *stack) logNotices(ctx context.Context) {
	if sb, ok := s.backend.(interface{ SandboxNotice() string }); ok {
		if n := sb.SandboxNotice(); n != "" {
			s.logger.Warn("sandbox: " + n)
		}
	}
	if s.config.Adapter != serveconfig.DefaultAdapter && s.config.AdapterSandbox == "" {
		s.logger.Info("the CLI agent runs unconfined (ALBERT_CODE_ADAPTER_SANDBOX=off), under the sandbox's guardian")
	}
	if q, ok := s.backend.(interface {
		QuotaWarnings(context.Context) []string
	}); ok {
		for _, w := range q.QuotaWarnings(ctx) {
			s.logger.Warn("quota: " + w)
		}
	}
}

// listen opens the API's port, with every surface served there mounted, and the
// MCP server's own port when it has one.
func (s *stack) listen() error {
	c := s.config
	if c.API.Enabled {
		mux := http.NewServeMux()
		s.api.Register(mux)
		// Other surfaces served on the API's port mount here, one line each, sharing
		// the API's tokens (Authorize), workspace locks (Locks), metrics registry
		// (Registry), runner and backend:
		//   - the OpenAI-compatible endpoint, internal/serve/openai;
		//   - the MCP server (/mcp, its own tokens), unless it has a port of its own.
		mounts := []func(*http.ServeMux){
			openai.New(openai.Options{Backend: s.backend, Runner: s.runner, Root: s.root, Locks: s.api.Locks(), Models: c.AvailableModels, Authorize: openai.AuthorizeWith(s.api.Authorize), MaxBody: c.API.MaxBody, Timeout: c.Timeout, Logger: s.logger}).Mount,
		}
		if s.mcp != nil && c.MCP.Port == 0 {
			mounts = append(mounts, s.mcp.Mount)
		}
		// The web console (/ui), internal/serve/console, on the API's tokens.
		if mount, err := newServeConsole(c, s.store, s.root, s.api, s.scheduler, s.backend, s.logger); err != nil {
			return cmdutil.Failed(err)
		} else if mount != nil {
			mounts = append(mounts, mount)
		}
		for _, mount := range mounts {
			mount(mux)
		}
		ln, err := net.Listen("tcp", net.JoinHostPort(c.API.Host, strconv.Itoa(c.API.Port)))
		if err != nil {
			return cmdutil.Failed(fmt.Errorf("%s: listen on port %d: %w", c.Source("API_MODE_PORT"), c.API.Port, err))
		}
		s.listeners = append(s.listeners, listener{name: "API", ln: ln, handler: mux})
	}
	if s.mcp != nil && c.MCP.Port != 0 {
		// On its own port the MCP server answers at / (the original's URL) and /mcp.
		mux := http.NewServeMux()
		mux.Handle("/", s.mcp.Handler())
		ln, err := net.Listen("tcp", net.JoinHostPort(c.API.Host, strconv.Itoa(c.MCP.Port)))
		if err != nil {
			return cmdutil.Failed(fmt.Errorf("%s: listen on port %d: %w", c.Source("MCP_MODE_PORT"), c.MCP.Port, err))
		}
		s.listeners = append(s.listeners, listener{name: "MCP", ln: ln, handler: mux})
	}
	return nil
}

// close releases what build made, in the reverse order: for a stack that served,
// after serve returned; for one that failed to build, what it got to.
func (s *stack) close() {
	for _, l := range s.listeners {
		l.ln.Close() // already closed by a server that served on it
	}
	if s.mcp != nil {
		s.mcp.Close()
	}
	s.stopKeepAlive()
	if s.store != nil {
		s.store.Close()
	}
}

// runnerOptions are the CLI runner's settings from serve's configuration.
func runnerOptions(c serveconfig.Config) runner.Options {
	return runner.Options{Timeout: c.Timeout, IdleTimeout: c.IdleTimeout,
		Sandbox: sandbox.Mode(c.AdapterSandbox), Writable: c.AdapterWritable}
}
