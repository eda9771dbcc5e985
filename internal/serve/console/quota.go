package console

import (
	"net/http"
	"time"
)

// Thresholds of the gauges: the ones the footer and the start-up warnings use
// (internal/tui/rategauge.go, agentenv's quota warnings).
const (
	warnPercent     = 80
	criticalPercent = 95
)

// gauge is one figure of a model: rpm, tpm, rpd or tpd.
type gauge struct {
	Name        string
	Used, Limit int64
	Percent     int64
	Level       string // ok, warn or critical
	Low, High   int64  // the meter's 80 % and 95 % marks
}

type modelGauges struct {
	Model, Source string
	Gauges        []gauge
	BlockedFor    time.Duration
	FallbackFor   time.Duration
	ExhaustedAt   time.Time
	ResetsAt      time.Time
}

func level(pct int64) string {
	switch {
	case pct >= criticalPercent:
		return "critical"
	case pct >= warnPercent:
		return "warn"
	}
	return "ok"
}

func (c *Console) quotaData() map[string]any {
	if c.opts.Quota == nil {
		return map[string]any{"Off": true}
	}
	var models []modelGauges
	for _, s := range c.opts.Quota(c.opts.Now()) {
		m := modelGauges{Model: s.Model, Source: s.LimitSource, BlockedFor: s.BlockedFor.Round(100 * time.Millisecond),
			FallbackFor: s.FallbackFor.Round(time.Second)}
		for _, k := range s.Counters() {
			pct := min(100, 100*k.Used/k.Limit)
			m.Gauges = append(m.Gauges, gauge{Name: k.Name, Used: k.Used, Limit: k.Limit, Percent: pct, Level: level(pct),
				Low: k.Limit * warnPercent / 100, High: k.Limit * criticalPercent / 100})
		}
		if e := s.Exhausted; e != nil {
			m.ExhaustedAt, m.ResetsAt = e.RecordedAt, e.ResetAt()
		}
		models = append(models, m)
	}
	return map[string]any{"Models": models, "Warn": warnPercent, "Critical": criticalPercent}
}

func (c *Console) quotaPage(w http.ResponseWriter, r *http.Request) {
	c.render(w, r, http.StatusOK, "quota", c.quotaData())
}

func (c *Console) quotaGauges(w http.ResponseWriter, r *http.Request) {
	c.fragment(w, r, "quota", "gauges", c.quotaData())
}
