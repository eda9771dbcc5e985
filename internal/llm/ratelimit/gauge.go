package ratelimit

// Counter is one figure of the footer's rate-limit gauge: rpm, tpm, rpd or tpd.
type Counter struct {
	Name        string
	Used, Limit int64
}

// Counters are the snapshot's figures that have a known limit, in the original's
// footer order: rpm, tpm, rpd, tpd. None when no limit is known.
func (s Snapshot) Counters() []Counter {
	var out []Counter
	for _, c := range []Counter{
		{"rpm", int64(s.Requests), int64(s.Limits.RPM)},
		{"tpm", s.Tokens, int64(s.Limits.TPM)},
		{"rpd", int64(s.DayRequests), int64(s.Limits.RPD)},
		{"tpd", s.DayTokens, int64(s.Limits.TPD)},
	} {
		if c.Limit > 0 {
			out = append(out, c)
		}
	}
	return out
}
