package serve

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/etalab-ia/albert-code/internal/proctrack"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

// leftoverWrite bounds forgetting one killed group; judgement, as the API's
// writes: past 10 s the store is broken and the group is tried again next start.
const leftoverWrite = 10 * time.Second

// killLeftovers kills the process groups that the runs of a server that died left
// running (the store already marked those runs interrupted), before any new run
// can meet them in a workspace. A group that cannot be proven to be the recorded
// one is left alone and forgotten; one that could not be checked stays on record.
func killLeftovers(store interface {
	Leftovers() []runstore.RunGroup
	RemoveGroup(ctx context.Context, id string, g proctrack.Group) error
}, logger *slog.Logger) {
	for _, lg := range store.Leftovers() {
		n, err := proctrack.KillLeftover(lg.Group)
		switch {
		case errors.Is(err, proctrack.ErrNotOurs):
			logger.Warn("a process group left by an interrupted run now holds other processes: left alone",
				"run", lg.RunID, "pgid", lg.Group.PGID, "err", err)
		case err != nil:
			logger.Error("kill the processes left by an interrupted run", "run", lg.RunID, "pgid", lg.Group.PGID, "err", err)
			continue
		case n > 0:
			logger.Warn("killed processes left running by an interrupted run", "run", lg.RunID, "pgid", lg.Group.PGID, "processes", n)
		}
		ctx, cancel := context.WithTimeout(context.Background(), leftoverWrite)
		if err := store.RemoveGroup(ctx, lg.RunID, lg.Group); err != nil {
			logger.Warn("forget a killed process group", "run", lg.RunID, "pgid", lg.Group.PGID, "err", err)
		}
		cancel()
	}
}
