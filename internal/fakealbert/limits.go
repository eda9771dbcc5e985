package fakealbert

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// event is one accepted chat request, as the limiter counts it.
type event struct {
	at     time.Time
	tokens int
}

// window is the span of per-minute limits.
const window = time.Minute

// admit checks m's limits for a request of tokens input tokens at now and books it
// when it passes; otherwise it returns Albert's 429 text.
func (s *Server) admit(m Model, tokens int, now time.Time) (string, bool) {
	evs := s.requests[m.ID]
	day := time.Date(now.UTC().Year(), now.UTC().Month(), now.UTC().Day(), 0, 0, 0, 0, time.UTC)
	var minuteReqs, minuteTokens, dayReqs, dayTokens int
	for _, e := range evs {
		if e.at.After(now.Add(-window)) {
			minuteReqs++
			minuteTokens += e.tokens
		}
		if !e.at.Before(day) {
			dayReqs++
			dayTokens += e.tokens
		}
	}
	l := m.Limits
	switch {
	case l.RPD > 0 && dayReqs+1 > l.RPD:
		return fmt.Sprintf("%d requests for %s per day exceeded.", l.RPD, m.ID), false
	case l.TPD > 0 && dayTokens+tokens > l.TPD:
		return fmt.Sprintf("%d input tokens for %s per day exceeded.", l.TPD, m.ID), false
	case l.RPM > 0 && minuteReqs+1 > l.RPM:
		return fmt.Sprintf("%d requests for %s per minute exceeded.", l.RPM, m.ID), false
	case l.TPM > 0 && minuteTokens+tokens > l.TPM:
		return fmt.Sprintf("%d input tokens for %s per minute exceeded.", l.TPM, m.ID), false
	}
	// Keep one day of events: enough for the daily limits and /v1/me/usage today.
	kept := evs[:0]
	for _, e := range evs {
		if e.at.After(now.Add(-24 * time.Hour)) {
			kept = append(kept, e)
		}
	}
	s.requests[m.ID] = append(kept, event{at: now, tokens: tokens})
	return "", true
}

// retryAfterHeader is the Retry-After a 429 carries, per Options.RetryAfter: one
// window's share of a request for per-minute limits.
func (s *Server) retryAfterHeader(m Model, now time.Time) map[string]string {
	secs := 60
	if m.Limits.RPM > 0 {
		secs = max(1, 60/m.Limits.RPM)
	}
	switch s.opts.RetryAfter {
	case "seconds":
		return map[string]string{"Retry-After": strconv.Itoa(secs)}
	case "date":
		return map[string]string{"Retry-After": now.Add(time.Duration(secs) * time.Second).UTC().Format(http.TimeFormat)}
	}
	return nil
}
