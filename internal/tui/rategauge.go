package tui

import (
	"strings"

	"github.com/etalab-ia/albert-code/internal/albert"
	"github.com/etalab-ia/albert-code/internal/slash"
)

// refreshRate reads the rate-limit figures after a call (a local file, no wait).
func (m *Model) refreshRate() {
	if m.conv != nil {
		m.rate = m.conv.RateGauge()
	}
}

// rateGauge draws "rpm 3/50 tpm 12k/128k rpd 45/1000 tpd 1.2M/2.5M", each figure
// coloured at 80 % (warning) and 95 % (critical) of its limit, as the original's
// footer; empty when no limit is known.
func (m *Model) rateGauge() string {
	parts := make([]string, 0, len(m.rate))
	for _, c := range m.rate {
		text := c.Name + " " + slash.CompactCount(c.Used) + "/" + slash.CompactCount(c.Limit)
		switch albert.LevelOf(c.Used, c.Limit) {
		case albert.LevelCritical, albert.LevelExhausted:
			text = m.theme.Error.Render(text)
		case albert.LevelWarning:
			text = m.theme.Warn.Render(text)
		default:
			text = m.theme.Footer.Render(text)
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, " ")
}
