package agentenv

import (
	"time"

	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// RateSnapshots are the shared rate-limit state of every configured model that
// has a known limit or an exhausted daily quota, one per model, for the serve
// web console's quota page; none when rate limits are off. Like RateGauge, it
// reads the state file and waits for nothing.
func (e *Env) RateSnapshots(now time.Time) []ratelimit.Snapshot {
	if e.Config.RateLimits.Off {
		return nil
	}
	store := ratelimit.NewStore(e.Config.Home)
	table := RateLimitTable(e.Config)
	seen := map[string]bool{}
	var out []ratelimit.Snapshot
	for _, m := range e.Config.Models {
		p, err := e.Config.Provider(m.Provider)
		if err != nil {
			continue
		}
		snap, err := store.Snapshot(now, table, accountOf(p, e.apiKeyOrEmpty(p)), m.WireName)
		if err != nil || seen[snap.Model] || (len(snap.Counters()) == 0 && snap.Exhausted == nil) {
			continue
		}
		seen[snap.Model] = true
		out = append(out, snap)
	}
	return out
}
