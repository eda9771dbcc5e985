package ratelimit

import (
	"slices"
	"sort"
	"time"
)

const (
	// Window is the span of the per-minute limits: a rolling 60 s, as Albert counts.
	Window = 60 * time.Second
	// spacingMargin is added to 60/rpm between two calls: the seed's 0.05 s debounce,
	// measured there to avoid the 429 at the window edge.
	spacingMargin = 50 * time.Millisecond
	// defaultCharsPerToken estimates tokens before any usage has calibrated the
	// model. Judgement: the usual four characters per token of BPE tokenizers on
	// English and code; calibration replaces it after the first answer.
	defaultCharsPerToken = 4.0
	// calibrationWeight is how much one answer moves the estimate (exponential
	// average). Judgement: a few calls settle it, one odd prompt does not swing it.
	calibrationWeight = 0.3
)

// slot is one request counted in a model's window.
type slot struct {
	At     int64  `json:"at"` // unix nanoseconds
	Tokens int64  `json:"tokens"`
	ID     string `json:"id"`
}

// modelState is what every process shares about one model of one account.
type modelState struct {
	Slots          []slot  `json:"slots,omitempty"`
	LastSlot       int64   `json:"last_slot,omitempty"`
	BlockedUntil   int64   `json:"blocked_until,omitempty"`
	Consecutive429 int     `json:"consecutive_429,omitempty"`
	FallbackUntil  int64   `json:"fallback_until,omitempty"`
	CharsPerToken  float64 `json:"chars_per_token,omitempty"`
	Learned        Limits  `json:"learned,omitzero"`
	// Day is the UTC midnight (unix seconds) DayRequests and DayTokens count from:
	// the calls every process of the user made today, for the footer's rpd/tpd.
	Day         int64 `json:"day,omitempty"`
	DayRequests int   `json:"day_requests,omitempty"`
	DayTokens   int64 `json:"day_tokens,omitempty"`
}

// countDay adds one answered call of input tokens to today's counters.
func (m *modelState) countDay(now time.Time, input int64) {
	if day := startOfDayUTC(now); m.Day != day {
		m.Day, m.DayRequests, m.DayTokens = day, 0, 0
	}
	m.DayRequests++
	m.DayTokens += max(input, 0)
}

// today returns today's counters, zero when they are from an earlier day.
func (m *modelState) today(now time.Time) (int, int64) {
	if m.Day != startOfDayUTC(now) {
		return 0, 0
	}
	return m.DayRequests, m.DayTokens
}

func startOfDayUTC(t time.Time) int64 {
	u := t.UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC).Unix()
}

// prune forgets the requests that left the window.
func (m *modelState) prune(now time.Time) {
	cut := now.Add(-Window).UnixNano()
	i := 0
	for i < len(m.Slots) && m.Slots[i].At <= cut {
		i++
	}
	m.Slots = m.Slots[i:]
}

// idle reports whether m holds nothing worth keeping.
func (m *modelState) idle(now time.Time) bool {
	n := now.UnixNano()
	requests, _ := m.today(now)
	return len(m.Slots) == 0 && m.BlockedUntil <= n && m.FallbackUntil <= n &&
		m.Consecutive429 == 0 && m.CharsPerToken == 0 && m.Learned.IsZero() && requests == 0
}

// tokens sums the tokens in the window.
func (m *modelState) tokens() int64 {
	var sum int64
	for _, s := range m.Slots {
		sum += s.Tokens
	}
	return sum
}

// spacing is the minimum gap between two calls at rpm: 60/rpm + 0.05 s.
func spacing(rpm int) time.Duration {
	if rpm <= 0 {
		return 0
	}
	return time.Minute/time.Duration(rpm) + spacingMargin
}

// waitFor is how long a request of est tokens must wait under lim: the longest of
// the spacing since the last call, a server-imposed block, the time until a request
// slot frees, and the time until enough tokens leave the window for est to fit.
// A request larger than the whole token limit is let through once the window is
// empty, since waiting longer could never help; the server decides.
func (m *modelState) waitFor(now time.Time, lim Limits, est int64) time.Duration {
	n := now.UnixNano()
	var wait time.Duration
	later := func(until int64) {
		if d := time.Duration(until - n); d > wait {
			wait = d
		}
	}
	if m.LastSlot > 0 {
		later(m.LastSlot + int64(spacing(lim.RPM)))
	}
	later(m.BlockedUntil)
	win := int64(Window)
	if lim.RPM > 0 && len(m.Slots) >= lim.RPM {
		later(m.Slots[len(m.Slots)-lim.RPM].At + win)
	}
	if lim.TPM > 0 && len(m.Slots) > 0 {
		excess := m.tokens() + est - int64(lim.TPM)
		for i := 0; excess > 0 && i < len(m.Slots); i++ {
			excess -= m.Slots[i].Tokens
			if excess > 0 && i == len(m.Slots)-1 {
				excess = 0 // est alone passes the limit: wait for an empty window
			}
			if excess <= 0 {
				later(m.Slots[i].At + win)
			}
		}
	}
	return wait
}

// take records a request of est tokens at now.
func (m *modelState) take(now time.Time, est int64, id string) {
	n := now.UnixNano()
	m.LastSlot = n
	m.Slots = append(m.Slots, slot{At: n, Tokens: est, ID: id})
	sort.SliceStable(m.Slots, func(i, j int) bool { return m.Slots[i].At < m.Slots[j].At })
}

// settle replaces the estimate of request id by the tokens the server reported
// and calibrates the characters-per-token ratio from them.
func (m *modelState) settle(id string, chars int, inputTokens int64) {
	if inputTokens <= 0 {
		return
	}
	for i := range m.Slots {
		if m.Slots[i].ID == id {
			m.Slots[i].Tokens = inputTokens
		}
	}
	if chars <= 0 {
		return
	}
	ratio := float64(chars) / float64(inputTokens)
	if m.CharsPerToken == 0 {
		m.CharsPerToken = ratio
		return
	}
	m.CharsPerToken += calibrationWeight * (ratio - m.CharsPerToken)
}

// estimate converts a request's characters to tokens with the calibrated ratio.
func (m *modelState) estimate(chars int) int64 {
	r := m.CharsPerToken
	if r <= 0 {
		r = defaultCharsPerToken
	}
	return int64(float64(chars)/r + 0.5)
}

// drop forgets request id.
func (m *modelState) drop(id string) {
	m.Slots = slices.DeleteFunc(m.Slots, func(s slot) bool { return s.ID == id })
}
