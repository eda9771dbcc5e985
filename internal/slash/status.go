package slash

import (
	"fmt"
	"strings"
)

// FormatStatus renders s as the Markdown /status shows.
func FormatStatus(s Status) string {
	var b strings.Builder
	b.WriteString("## Status\n\n")
	row := func(k, v string) { fmt.Fprintf(&b, "- **%s**: %s\n", k, v) }
	if s.SessionID != "" {
		row("Session", "`"+s.SessionID+"`")
	} else {
		row("Session", "not saved (sessions are disabled)")
	}
	if s.SessionDir != "" {
		row("Folder", "`"+s.SessionDir+"`")
	}
	row("Model", "`"+s.Model+"`")
	row("Agent", "`"+s.Profile+"`")
	row("Context", ContextGauge(s.Stats.ContextTokens, s.ContextWindow))
	u := s.Stats.Usage
	row("Tokens", fmt.Sprintf("%s in, %s out", CompactCount(u.InputTokens), CompactCount(u.OutputTokens)))
	row("Cost", fmt.Sprintf("%.4f €", s.Stats.Cost))
	return b.String()
}

// FormatCost renders the token and cost lines /cost shows.
func FormatCost(s Status) string {
	u := s.Stats.Usage
	return fmt.Sprintf("%s tokens in, %s out: **%.4f €** this session (model `%s`).",
		CompactCount(u.InputTokens), CompactCount(u.OutputTokens), s.Stats.Cost, s.Model)
}

// ContextGauge says how full the context window is, such as "12.3k / 128k (10%)";
// with an unknown window it gives the count alone.
func ContextGauge(used int64, window int) string {
	if window <= 0 {
		return CompactCount(used) + " (window unknown)"
	}
	pct := used * 100 / int64(window)
	return fmt.Sprintf("%s / %s (%d%%)", CompactCount(used), CompactCount(int64(window)), pct)
}

// CompactCount writes a token count as 950, 3.5k, 128k or 2.5M, the original's
// bottom-bar style (notes §3.7).
func CompactCount(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 100_000:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1000)) + "k"
	case n < 1_000_000:
		return fmt.Sprintf("%dk", n/1000)
	case n < 10_000_000:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1e6)) + "M"
	}
	return fmt.Sprintf("%dM", n/1_000_000)
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }
