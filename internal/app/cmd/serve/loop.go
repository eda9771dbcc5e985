package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/serve/api"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/telegram"
)

// shutdownWait bounds a shutdown's wait for runs to stop: the supervisor's 5 s
// grace per process group, with room; judgement. The connections' own limits are
// api.ConnLimits'.
const shutdownWait = 30 * time.Second

// serve runs the stack until ctx ends or SIGINT or SIGTERM arrives: the scheduler
// and the bot in the background, the ports in the foreground. On a stop, runs are
// cancelled and their process groups stopped first, so the sync callers get their
// answers, then the HTTP servers drain, then the scheduler's and the bot's runs
// get their grace period.
func (s *stack) serve(ctx context.Context) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	var background sync.WaitGroup
	defer background.Wait()
	if s.scheduler != nil {
		background.Go(func() {
			if err := s.scheduler.Run(ctx); err != nil {
				s.logger.Error("cron: scheduler", "err", err)
			}
		})
	}
	if s.bot != nil {
		background.Go(func() {
			s.store.runTelegram(ctx, s.bot, func() (*telegram.Bot, error) {
				return newServeTelegram(s.config, s.home, s.backend, s.runner, s.root, s.api.Locks(), s.logger)
			}, s.logger)
		})
	}
	err := s.serveHTTP(ctx)
	stop()
	return err
}

// serveHTTP serves every listener until ctx ends or one fails, then shuts down.
func (s *stack) serveHTTP(ctx context.Context) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	cleanCtx, stopClean := context.WithCancel(ctx)
	defer stopClean()
	wg.Go(func() {
		runstore.Clean(cleanCtx, s.store, 0, func(n int, err error) {
			s.logger.Info("removed expired runs", "removed", n, "err", err)
		})
	})

	served := make(chan error, len(s.listeners))
	servers := make([]*http.Server, len(s.listeners))
	for i, l := range s.listeners {
		hs, ln := api.NewHTTPServer(l.handler, l.ln, s.limits)
		servers[i] = hs
		go func() { served <- hs.Serve(ln) }()
		s.logger.Info("albert-code serve: "+l.name+" listening", "addr", "http://"+l.ln.Addr().String(), "adapter", s.backend.Name())
	}

	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-served:
	}
	s.logger.Info("albert-code serve: shutting down, cancelling runs")
	down, cancel := context.WithTimeout(context.Background(), shutdownWait)
	defer cancel()
	if err := s.api.Shutdown(down); err != nil {
		s.logger.Warn("runs still stopping at shutdown", "err", err)
	}
	if s.mcp != nil {
		s.mcp.Close() // ends the MCP streams, which would hold the drain up
	}
	for _, hs := range servers {
		if err := hs.Shutdown(down); err != nil {
			s.logger.Warn("HTTP server shutdown", "err", err)
		}
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return cmdutil.Failed(fmt.Errorf("serve: %w", serveErr))
	}
	s.logger.Info("albert-code serve: stopped")
	return nil
}
