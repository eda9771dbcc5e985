package config

import (
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
	rec := func(raw string) { c.sources[raw] = o(raw) }
	if l.Enabled != nil {
		c.RateLimits.Off = !*l.Enabled
		rec("rate_limits.enabled")
	}
	if l.Tier != nil {
		if *l.Tier != "exp" && *l.Tier != "prod" {
			return fieldError(o, "rate_limits.tier", "rate_limits.tier", fmt.Sprintf("invalid tier %q: want \"exp\" or \"prod\"", *l.Tier), "")
		}
		c.RateLimits.Tier = *l.Tier
		rec("rate_limits.tier")
	}
	if l.MaxWait != nil {
		d, err := parseDuration(*l.MaxWait)
		if err != nil {
			return fieldError(o, "rate_limits.max_wait", "rate_limits.max_wait", err.Error(), "")
		}
		c.RateLimits.MaxWait = d
		rec("rate_limits.max_wait")
	}
	if l.QuotaProviders != nil {
		c.RateLimits.QuotaProviders = slices.Clone(*l.QuotaProviders)
		rec("rate_limits.quota_providers")
	}
	for _, name := range slices.Sorted(maps.Keys(l.Models)) {
		ml := l.Models[name]
		if c.RateLimits.Models == nil {
			c.RateLimits.Models = map[string]ModelLimits{}
		}
		cur := c.RateLimits.Models[name]
		for _, f := range []struct {
			key string
			src *int
			dst *int
		}{{"rpm", ml.RPM, &cur.RPM}, {"rpd", ml.RPD, &cur.RPD}, {"tpm", ml.TPM, &cur.TPM}, {"tpd", ml.TPD, &cur.TPD}} {
			if f.src == nil {
				continue
			}
			raw := "rate_limits.models." + strconv.Quote(name) + "." + f.key
			if *f.src < 0 {
				return fieldError(o, raw, raw, "must not be negative (0 keeps the documented limit)", "")
			}
			*f.dst = *f.src
			rec(raw)
		}
		c.RateLimits.Models[name] = cur
	}
	return nil
}

// applyAutoFallback reads the original's top-level auto_fallback_enabled.
func (c *Config) applyAutoFallback(v *bool, o origin) {
	if v == nil {
		return
	}
	c.RateLimits.NoAutoFallback = !*v
	c.sources["auto_fallback_enabled"] = o("auto_fallback_enabled")
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
