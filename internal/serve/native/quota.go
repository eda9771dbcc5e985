package native

import (
	"time"

	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// RateSnapshots are the rate-limit state and daily usage of the configured
// models, for the web console's quota gauges; none when the configuration does
// not load.
func (n *Native) RateSnapshots(now time.Time) []ratelimit.Snapshot {
	env, err := n.baseEnv()
	if err != nil {
		return nil
	}
	return env.RateSnapshots(now)
}
