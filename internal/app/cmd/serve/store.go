package serve

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/proctrack"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/pgstore"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/telegram"
)

// clusterStart bounds connecting and migrating at start; judgement: a reachable
// database answers in a second, and a start stuck longer should say why.
const clusterStart = 30 * time.Second

// telegramLease is how long the polling replica holds the bot; judgement: a dead
// leader's bot is picked up within 15 s, and a renewal every 5 s costs nothing.
const telegramLease = 15 * time.Second

// runStore is the run store of serve and, on PostgreSQL, the cluster around it.
type runStore struct {
	runstore.Store
	leftovers interface {
		Leftovers() []runstore.RunGroup
		RemoveGroup(ctx context.Context, id string, g proctrack.Group) error
	}
	// pg is nil on the embedded SQLite store: one server, no cluster.
	pg *pgstore.Store
}

// openRunStore opens PostgreSQL when ALBERT_CODE_DATABASE_URL is set, else the
// SQLite file. A replica's shared settings (the tokens, the adapter) must match
// those of the replicas already running.
func openRunStore(ctx context.Context, c serveconfig.Config, home string, logger *slog.Logger) (*runStore, error) {
	if c.DatabaseURL != "" {
		octx, cancel := context.WithTimeout(ctx, clusterStart)
		defer cancel()
		pg, err := pgstore.Open(octx, c.DatabaseURL, pgstore.Options{Retention: c.Retention, Settings: sharedSettings(c)})
		if err != nil {
			return nil, err
		}
		logger.Info("run store: PostgreSQL, shared with the other replicas", "url", pgstore.Mask(c.DatabaseURL), "replica", pg.Replica())
		return &runStore{Store: pg, leftovers: pg, pg: pg}, nil
	}
	path := c.RunStore
	if path == "" {
		path = filepath.Join(home, "serve", "runs.db")
	}
	st, err := runstore.OpenSQLite(path, runstore.Options{Retention: c.Retention})
	if err != nil {
		return nil, err
	}
	if n := st.Interrupted(); n > 0 {
		logger.Warn("runs interrupted by the last stop are marked failed", "runs", n)
	}
	return &runStore{Store: st, leftovers: st}, nil
}

// sharedSettings are the values that must be the same on every replica: a client's
// token must open every replica, and a run must not depend on which one took it.
func sharedSettings(c serveconfig.Config) map[string]string {
	tokens := func(ts []string) string {
		s := slices.Clone(ts)
		slices.Sort(s)
		return strings.Join(s, "\x00")
	}
	return map[string]string{
		"ALBERT_CODE_API_MODE_TOKEN":      tokens(c.API.Tokens),
		"ALBERT_CODE_MCP_MODE_TOKEN":      tokens(c.MCP.Tokens),
		"ALBERT_CODE_TELEGRAM_MODE_TOKEN": c.Telegram.Token,
		"ALBERT_CODE_ADAPTER":             c.Adapter,
	}
}

// keepAlive beats the replica's lease and reaps dead replicas until the returned
// stop is called; stop waits for it. Nothing to do on SQLite.
func (s *runStore) keepAlive(ctx context.Context, logger *slog.Logger) (stop func()) {
	if s.pg == nil {
		return func() {}
	}
	kctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		s.pg.KeepAlive(kctx, func(reaped int, err error) {
			switch {
			case err != nil:
				logger.Error("cluster: heartbeat", "err", err)
			case reaped > 0:
				logger.Warn("cluster: runs of a dead replica failed", "runs", reaped)
			}
		})
	})
	return func() { cancel(); wg.Wait() }
}

// runTelegram polls Telegram until ctx ends: at once on SQLite; on PostgreSQL only
// while this replica holds the bot's lease, so that one replica polls (Telegram
// answers a second poller with 409). A bot runs once, so each new lease gets a
// new one from build.
func (s *runStore) runTelegram(ctx context.Context, first *telegram.Bot, build func() (*telegram.Bot, error), logger *slog.Logger) {
	if s.pg == nil {
		if err := first.Run(ctx); err != nil {
			logger.Error("telegram: bot", "err", err)
		}
		return
	}
	bot := first
	s.pg.Lead(ctx, "telegram", telegramLease, func(lctx context.Context) {
		if bot == nil {
			var err error
			if bot, err = build(); err != nil {
				logger.Error("telegram: bot", "err", err)
				return
			}
		}
		logger.Info("telegram: this replica polls the bot")
		if err := bot.Run(lctx); err != nil {
			logger.Error("telegram: bot", "err", err)
		}
		bot = nil
	})
}
