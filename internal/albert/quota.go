package albert

import (
	"fmt"
	"time"
)

// Thresholds of the start-up warning: the original's _QUOTA_WARN_PCT and
// _QUOTA_HARD_WARN_PCT (notes §3.6).
const (
	WarnAt     = 0.80
	CriticalAt = 0.95
)

// Level grades how close a daily counter is to its limit.
type Level string

const (
	LevelOK        Level = "ok"
	LevelWarning   Level = "warning"
	LevelCritical  Level = "critical"
	LevelExhausted Level = "exhausted"
	// LevelUnknown is a counter with no known limit.
	LevelUnknown Level = "unknown"
)

// LevelOf grades used against limit; a limit of zero is unknown or unlimited.
func LevelOf(used, limit int64) Level {
	switch {
	case limit <= 0:
		return LevelUnknown
	case used >= limit:
		return LevelExhausted
	case float64(used) >= CriticalAt*float64(limit):
		return LevelCritical
	case float64(used) >= WarnAt*float64(limit):
		return LevelWarning
	}
	return LevelOK
}

// worse returns the more severe of two levels.
func worse(a, b Level) Level {
	rank := map[Level]int{LevelUnknown: 0, LevelOK: 1, LevelWarning: 2, LevelCritical: 3, LevelExhausted: 4}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// StartOfDayUTC is 00:00 UTC of t's day: Albert's daily counters start there.
func StartOfDayUTC(t time.Time) time.Time {
	u := t.UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
}

// ModelQuota is one model's use today against its daily limits.
type ModelQuota struct {
	Model       string `json:"model"`
	Requests    int64  `json:"requests_today"`
	InputTokens int64  `json:"input_tokens_today"`
	// RPD and TPD are the daily limits; zero when unknown or unlimited.
	RPD         int64  `json:"rpd_limit,omitempty"`
	TPD         int64  `json:"tpd_limit,omitempty"`
	LimitSource string `json:"limit_source"`
	Level       Level  `json:"level"`
	// ExhaustedAt is set while throttle_state.json records the quota as exhausted.
	ExhaustedAt *time.Time `json:"exhausted_at,omitempty"`
	ResetAt     time.Time  `json:"reset_at"`
}

// Tally counts today's events per model, under the key canonical gives each name
// (Albert reports wire ids; configuration may use aliases).
func Tally(events []UsageEvent, dayStart time.Time, canonical func(string) string) map[string]*ModelQuota {
	out := map[string]*ModelQuota{}
	for _, e := range events {
		if e.Created.Before(dayStart) {
			continue
		}
		key := canonical(e.Model)
		q := out[key]
		if q == nil {
			q = &ModelQuota{Model: key}
			out[key] = q
		}
		q.Requests++
		q.InputTokens += e.PromptTokens
	}
	return out
}

// Grade sets q's level from its counters and limits.
func (q *ModelQuota) Grade() {
	q.Level = worse(LevelOf(q.Requests, q.RPD), LevelOf(q.InputTokens, q.TPD))
	if q.ExhaustedAt != nil {
		q.Level = LevelExhausted
	}
}

// Warning is the start-up line for q, starting with its level ("warning:",
// "critical:"), or "" when there is nothing to say.
func (q ModelQuota) Warning() string {
	reset := q.ResetAt.UTC().Format("15:04")
	switch q.Level {
	case LevelExhausted:
		if q.ExhaustedAt != nil {
			return fmt.Sprintf("warning: the daily quota of %s was exhausted at %s UTC; it resets at %s UTC: use another model (--model, /model) meanwhile",
				q.Model, q.ExhaustedAt.UTC().Format("15:04"), reset)
		}
		return fmt.Sprintf("warning: the daily quota of %s is used up (%s); it resets at %s UTC", q.Model, q.usage(), reset)
	case LevelCritical:
		return fmt.Sprintf("critical: %s has used %s of its daily quota; the next calls will likely be refused until %s UTC", q.Model, q.usage(), reset)
	case LevelWarning:
		return fmt.Sprintf("warning: %s has used %s of its daily quota (resets at %s UTC)", q.Model, q.usage(), reset)
	}
	return ""
}

// usage says the most used of the two daily counters, as "85 % (2,091,000 / 2,460,000 input tokens)".
func (q ModelQuota) usage() string {
	tok, req := ratio(q.InputTokens, q.TPD), ratio(q.Requests, q.RPD)
	if tok >= req {
		return fmt.Sprintf("%.0f %% (%s / %s input tokens)", 100*tok, group(q.InputTokens), group(q.TPD))
	}
	return fmt.Sprintf("%.0f %% (%s / %s requests)", 100*req, group(q.Requests), group(q.RPD))
}

func ratio(used, limit int64) float64 {
	if limit <= 0 {
		return -1
	}
	return float64(used) / float64(limit)
}

// group writes n with thousands separators: 2460000 → 2,460,000.
func group(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
