package acp

import (
	"github.com/etalab-ia/albert-code/internal/albert"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// rateLimitsMetaKey names, in a usage update's _meta, the active model's rate-limit
// gauge: ACP has no field for it, and _meta is where extensions go.
const rateLimitsMetaKey = "albert-code/rateLimits"

// rateLimitMeta is one figure of the gauge as the editor receives it.
type rateLimitMeta struct {
	Name  string `json:"name"`
	Used  int64  `json:"used"`
	Limit int64  `json:"limit"`
	// Level is ok, warning (80 %), critical (95 %) or exhausted.
	Level string `json:"level"`
}

func rateLimitsMeta(counters []ratelimit.Counter) []rateLimitMeta {
	if len(counters) == 0 {
		return nil
	}
	out := make([]rateLimitMeta, 0, len(counters))
	for _, c := range counters {
		out = append(out, rateLimitMeta{Name: c.Name, Used: c.Used, Limit: c.Limit, Level: string(albert.LevelOf(c.Used, c.Limit))})
	}
	return out
}
