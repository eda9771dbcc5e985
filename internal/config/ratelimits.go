package config

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
)

// EnvRateLimits turns the rate-limit layer on or off (true/false), for one run
// or a benchmark, without editing a file.
const EnvRateLimits = "ALBERT_CODE_RATE_LIMITS"

// RateLimits is the [rate_limits] table: the client-side limiter in front of the
// model providers. The zero value is on, with the documented EXP tier.
type RateLimits struct {
	// Off disables the limiter (enabled = false).
	Off bool
	// Tier picks the documented Albert limits: "exp" (the default) or "prod".
	Tier string
	// QuotaProviders name the providers whose /v1/me/info and /v1/me/usage report
	// the account's quota; nil means ["albert"].
	QuotaProviders []string
	// Models override limits, keyed by a model's name, alias or wire name.
	Models map[string]ModelLimits
	// MaxWait is the longest wait for a rate limit (a server's Retry-After or a
	// predicted slot) before the call fails; zero means DefaultMaxWait.
	MaxWait time.Duration
	// NoAutoFallback keeps calls on a rate-limited model instead of moving them to
	// its fallback_model (auto_fallback_enabled = false, or /fallback).
	NoAutoFallback bool
}

// DefaultMaxWait is rate_limits.max_wait when unset: the original waited out any
// Retry-After; ten minutes covers a per-minute window many times over and still
// ends a run whose quota will not come back soon (judgement).
const DefaultMaxWait = 10 * time.Minute

// MaxWaitOrDefault returns MaxWait or its default.
func (r RateLimits) MaxWaitOrDefault() time.Duration {
	if r.MaxWait <= 0 {
		return DefaultMaxWait
	}
	return r.MaxWait
}

// ModelLimits are per-model caps; zero leaves the documented or learned value.
type ModelLimits struct {
	RPM, RPD, TPM, TPD int
}

// QuotaProviderNames returns QuotaProviders or its default.
func (r RateLimits) QuotaProviderNames() []string {
	if r.QuotaProviders == nil {
		return []string{"albert"}
	}
	return r.QuotaProviders
}

type rateLimitsLayer struct {
	Enabled        *bool                       `toml:"enabled"`
	Tier           *string                     `toml:"tier"`
	QuotaProviders *[]string                   `toml:"quota_providers"`
	MaxWait        *string                     `toml:"max_wait"`
	Models         map[string]modelLimitsLayer `toml:"models"`
}

type modelLimitsLayer struct {
	RPM *int `toml:"rpm"`
	RPD *int `toml:"rpd"`
	TPM *int `toml:"tpm"`
	TPD *int `toml:"tpd"`
}

func (c *Config) applyRateLimits(l *rateLimitsLayer, o origin) error {
	if l == nil {
		return nil
	}
	err := c.runSteps(o,
		key("rate_limits.enabled", l.Enabled, &c.RateLimits.Off, not),
		key("rate_limits.tier", l.Tier, &c.RateLimits.Tier, func(v string) (string, error) {
			if v != "exp" && v != "prod" {
				return "", fmt.Errorf("invalid tier %q: want \"exp\" or \"prod\"", v)
			}
			return v, nil
		}),
		key("rate_limits.max_wait", l.MaxWait, &c.RateLimits.MaxWait, parseDuration),
		key("rate_limits.quota_providers", l.QuotaProviders, &c.RateLimits.QuotaProviders, cloned),
	)
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(l.Models)) {
		ml := l.Models[name]
		if c.RateLimits.Models == nil {
			c.RateLimits.Models = map[string]ModelLimits{}
		}
		cur := c.RateLimits.Models[name]
		at := "rate_limits.models." + strconv.Quote(name) + "."
		err := c.runSteps(o,
			key(at+"rpm", ml.RPM, &cur.RPM, limit),
			key(at+"rpd", ml.RPD, &cur.RPD, limit),
			key(at+"tpm", ml.TPM, &cur.TPM, limit),
			key(at+"tpd", ml.TPD, &cur.TPD, limit),
		)
		if err != nil {
			return err
		}
		c.RateLimits.Models[name] = cur
	}
	return nil
}

func limit(n int) (int, error) {
	if n < 0 {
		return n, errors.New("must not be negative (0 keeps the documented limit)")
	}
	return n, nil
}

func setRateLimitsEnv(l *layer, v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("expected true or false, got %q", v)
	}
	if l.RateLimits == nil {
		l.RateLimits = &rateLimitsLayer{}
	}
	l.RateLimits.Enabled = &b
	return nil
}
