package config

import (
	"strings"
	"testing"
	"time"
)

func TestRateLimitsTableDefaultsOverridesAndEnv(t *testing.T) {
	s := newSandbox(t)
	c := s.load(t, Overrides{})
	if c.RateLimits.Off || c.RateLimits.Tier != "" || strings.Join(c.RateLimits.QuotaProviderNames(), ",") != "albert" {
		t.Fatalf("defaults = %+v, want on, documented EXP tier, quota from albert", c.RateLimits)
	}
	write(t, s.globalFile(), `
[rate_limits]
tier = "prod"
quota_providers = ["albert", "albert-staging"]

[rate_limits.models."Qwen/Qwen3.6-27B"]
rpm = 40
tpd = 1000000

[rate_limits.models.qwen]
tpm = 99
`)
	c = s.load(t, Overrides{})
	r := c.RateLimits
	if r.Tier != "prod" || len(r.QuotaProviders) != 2 {
		t.Fatalf("rate_limits = %+v", r)
	}
	if got := r.Models["Qwen/Qwen3.6-27B"]; got != (ModelLimits{RPM: 40, TPD: 1000000}) {
		t.Fatalf("override by wire name = %+v", got)
	}
	if got := r.Models["qwen"]; got != (ModelLimits{TPM: 99}) {
		t.Fatalf("override by name = %+v", got)
	}
	t.Setenv(EnvRateLimits, "false")
	if c = s.load(t, Overrides{}); !c.RateLimits.Off {
		t.Fatalf("%s=false left the limiter on", EnvRateLimits)
	}
}

func TestRateLimitsBadValuesNameTheKey(t *testing.T) {
	s := newSandbox(t)
	for body, want := range map[string]string{
		"[rate_limits]\ntier = \"gold\"\n":      "rate_limits.tier",
		"[rate_limits.models.qwen]\nrpm = -1\n": "rpm",
		"[rate_limits]\nspeed = 3\n":            "speed",
		"[rate_limits]\nmax_wait = \"soon\"\n":  "rate_limits.max_wait",
	} {
		write(t, s.globalFile(), body)
		_, err := Load(Options{WorkDir: s.work})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want it to name %s", body, err, want)
		}
	}
}

func TestMaxWaitAndAutoFallback(t *testing.T) {
	s := newSandbox(t)
	c := s.load(t, Overrides{})
	if c.RateLimits.MaxWaitOrDefault() != 10*time.Minute || c.RateLimits.NoAutoFallback {
		t.Fatalf("defaults = %+v, want a 10 min max wait and the fallback on", c.RateLimits)
	}
	// auto_fallback_enabled is the original's top-level key, accepted as it wrote it.
	write(t, s.globalFile(), "auto_fallback_enabled = false\n[rate_limits]\nmax_wait = \"45s\"\n")
	c = s.load(t, Overrides{})
	if c.RateLimits.MaxWaitOrDefault() != 45*time.Second || !c.RateLimits.NoAutoFallback {
		t.Fatalf("rate_limits = %+v, want max_wait 45s and the fallback off", c.RateLimits)
	}
	if src, ok := c.Source("auto_fallback_enabled"); !ok || src.Kind != SourceFile {
		t.Fatalf("source of auto_fallback_enabled = %+v, %v", src, ok)
	}
}
