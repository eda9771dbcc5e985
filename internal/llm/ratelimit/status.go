package ratelimit

import (
	"fmt"
	"strings"
	"time"
)

// Exhausted lists the daily quotas throttle_state.json still records at now.
func (s *Store) Exhausted(now time.Time) ([]Exhausted, error) {
	var out []Exhausted
	err := s.view(now, func(_ *sharedState, th *throttleState) { out = append(out, th.Events...) })
	return out, err
}

// Snapshot is one model's rolling window as every process sees it, for /rpm and
// gauges. Taking it waits for nothing and books nothing (the original's /rpm
// acquired a slot and could freeze the screen for a minute).
type Snapshot struct {
	Model       string
	Limits      Limits
	LimitSource string
	// Requests and Tokens are the last 60 s; Tokens are input tokens.
	Requests int
	Tokens   int64
	// DayRequests and DayTokens are today's (UTC) answered calls and their input
	// tokens, as this machine's processes counted them.
	DayRequests int
	DayTokens   int64
	// Spacing is the minimum gap between two calls.
	Spacing time.Duration
	// BlockedFor is what is left of a server's Retry-After.
	BlockedFor time.Duration
	// FallbackFor is what is left of the fallback window.
	FallbackFor time.Duration
	// Exhausted is set while the daily quota is recorded as exhausted.
	Exhausted *Exhausted
}

// Snapshot reads model's state for account.
func (s *Store) Snapshot(now time.Time, t *Table, account, model string) (Snapshot, error) {
	canon := t.Canonical(model)
	key := account + "|" + canon
	snap := Snapshot{Model: canon}
	err := s.view(now, func(st *sharedState, th *throttleState) {
		m := st.Models[key]
		if m == nil {
			m = &modelState{}
		}
		snap.Limits = t.Limits(canon, m.Learned)
		snap.LimitSource = t.Source(canon, m.Learned)
		snap.Requests, snap.Tokens = len(m.Slots), m.tokens()
		snap.DayRequests, snap.DayTokens = m.today(now)
		snap.Spacing = spacing(snap.Limits.RPM)
		snap.BlockedFor = max(0, time.Duration(m.BlockedUntil-now.UnixNano()))
		snap.FallbackFor = max(0, time.Duration(m.FallbackUntil-now.UnixNano()))
		if e, ok := th.find(canon); ok {
			snap.Exhausted = &e
		}
	})
	return snap, err
}

// Text renders the snapshot for /rpm.
func (s Snapshot) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Model %s, rolling 60 s window (limits: %s)\n", s.Model, s.LimitSource)
	fmt.Fprintf(&b, "Requests: %s\n", gauge(int64(s.Requests), int64(s.Limits.RPM)))
	fmt.Fprintf(&b, "Tokens:   %s\n", gauge(s.Tokens, int64(s.Limits.TPM)))
	if s.Spacing > 0 {
		fmt.Fprintf(&b, "Spacing:  %.2fs minimum between calls\n", s.Spacing.Seconds())
	}
	if s.BlockedFor > 0 {
		fmt.Fprintf(&b, "Backoff:  %.1fs left (Retry-After)\n", s.BlockedFor.Seconds())
	}
	if s.FallbackFor > 0 {
		fmt.Fprintf(&b, "Fallback: calls go to the fallback model for %.0fs more\n", s.FallbackFor.Seconds())
	}
	if e := s.Exhausted; e != nil {
		fmt.Fprintf(&b, "Daily quota exhausted at %s UTC; resets at %s UTC\n", e.RecordedAt.UTC().Format("15:04"), e.ResetAt().Format("15:04"))
	}
	if s.Limits.RPM == 0 && s.Limits.TPM == 0 {
		b.WriteString("No per-minute limit is known for this model: set one under [rate_limits.models] or let a 429 teach it.\n")
	}
	return b.String()
}

// gauge draws "12/50 (24%) [#####···············]", 20 cells, capped at 100 %.
func gauge(used, limit int64) string {
	if limit <= 0 {
		return fmt.Sprintf("%d/? (no known limit)", used)
	}
	pct := min(100, 100*used/limit)
	cells := int(pct / 5)
	return fmt.Sprintf("%d/%d (%d%%) [%s%s]", used, limit, pct, strings.Repeat("#", cells), strings.Repeat("·", 20-cells))
}
