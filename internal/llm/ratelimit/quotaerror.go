package ratelimit

import "fmt"

// QuotaError ends a call whose model has exhausted a daily quota. It is not an
// *llm.APIError on purpose: retrying before midnight UTC only burns attempts.
type QuotaError struct {
	Exhausted
}

func (e *QuotaError) Error() string {
	what := "daily quota"
	switch e.Limit {
	case KindRPD:
		what = "daily request quota"
	case KindTPD:
		what = "daily input-token quota"
	}
	msg := fmt.Sprintf("%s exhausted on %s (recorded %s UTC); it resets at %s UTC: switch model (--model, /model) or wait",
		what, e.Model, e.RecordedAt.UTC().Format("15:04"), e.ResetAt().Format("2006-01-02 15:04"))
	if e.BodyExcerpt != "" {
		msg += "; server said: " + e.BodyExcerpt
	}
	return msg
}

func quotaError(e Exhausted) error { return &QuotaError{Exhausted: e} }

// excerptLen is how much of a 429 body throttle_state.json keeps: the original's 300.
const excerptLen = 300

func excerpt(s string) string {
	if len(s) > excerptLen {
		return s[:excerptLen]
	}
	return s
}
