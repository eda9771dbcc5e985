package serve

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/webmap"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
	"github.com/etalab-ia/albert-code/internal/serve/api"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/console"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// newServeConsole builds the web console mounted at /ui on the API's port. Its
// login takes the API's tokens, so without one there is no console (nil), and
// the log says how to have it.
func newServeConsole(c serveconfig.Config, store runstore.Store, root *workspace.Root, srv *api.Server, sched *cron.Scheduler,
	backend any, logger *slog.Logger) (func(*http.ServeMux), error) {
	if len(c.API.Tokens) == 0 {
		logger.Info("the web console at /ui is off: it needs an API token (" + c.Source("API_MODE_TOKEN") + ")")
		return nil, nil
	}
	opts := console.Options{Store: store, Root: root, Tokens: c.API.Tokens, Cancel: srv.CancelHandler(), Logger: logger}
	// Each workspace's code graph map, read from the index its agents keep (no
	// build button: an index is built by `graph index` or the agent's code_graph).
	opts.Map = webmap.NewWorkspaces(func(name string) (string, error) { return root.Workspace(name, false) }, webmap.Options{})
	if sched != nil {
		opts.Cron = sched
	}
	if q, ok := backend.(interface {
		RateSnapshots(time.Time) []ratelimit.Snapshot
	}); ok {
		opts.Quota = q.RateSnapshots
	}
	con, err := console.New(opts)
	if err != nil {
		return nil, err
	}
	return con.Mount, nil
}
