package chat

import (
	"context"

	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// QuotaText is today's usage against the account's daily limits, read from the
// server (/quota); a line per provider the configuration names for quotas.
func (s *Session) QuotaText(ctx context.Context) string {
	s.mu.Lock()
	env := s.env
	s.mu.Unlock()
	return env.QuotaText(ctx)
}

// RPMText is the active model's rolling window against its limits (/rpm), read from
// the shared rate-limit state without taking a slot.
func (s *Session) RPMText() (string, error) {
	s.mu.Lock()
	env := s.env
	s.mu.Unlock()
	return env.RPMText()
}

// RateGauge is the active model's rate-limit figures for the footer (rpm, tpm, rpd,
// tpd), read from the shared state without taking a slot.
func (s *Session) RateGauge() []ratelimit.Counter {
	s.mu.Lock()
	env := s.env
	s.mu.Unlock()
	return env.RateGauge()
}
