package agentenv

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// rateLimited puts inner, the client for p, behind the rate-limit layer shared by
// every albert-code process of the user, unless [rate_limits] enabled = false.
// A model's fallback_model on the same provider shares inner; on another provider
// it gets that provider's own client and layer, without a fallback of its own so
// that two models falling back on each other cannot loop.
func (e *Env) rateLimited(p config.Provider, apiKey string, inner llm.Provider) llm.Provider {
	rl := e.Config.RateLimits
	if rl.Off {
		return inner
	}
	opts := ratelimit.Options{
		Account: accountOf(p, apiKey),
		Store:   ratelimit.NewStore(e.Config.Home),
		Table:   RateLimitTable(e.Config),
		MaxWait: rl.MaxWaitOrDefault(),
	}
	if !e.noFallback && !rl.NoAutoFallback {
		opts.Fallback = func(wire string) (ratelimit.Route, bool) { return e.fallbackRoute(p, inner, opts.Account, wire) }
	}
	return ratelimit.Wrap(inner, opts)
}

// fallbackRoute finds where calls to the model with wire name wire go while it is
// rate limited: its fallback_model, through inner when both share provider p.
func (e *Env) fallbackRoute(p config.Provider, inner llm.Provider, account, wire string) (ratelimit.Route, bool) {
	m, err := e.Config.Model(wire)
	if err != nil || m.FallbackModel == "" {
		return ratelimit.Route{}, false
	}
	fb, err := e.Config.Model(m.FallbackModel)
	if err != nil {
		return ratelimit.Route{}, false
	}
	if fb.Provider == p.Name {
		return ratelimit.Route{Model: fb.WireName, Provider: inner, Account: account}, true
	}
	fp, err := e.Config.Provider(fb.Provider)
	if err != nil {
		return ratelimit.Route{}, false
	}
	c := *e
	c.noFallback = true
	other, err := c.NewProvider(fp)
	if err != nil {
		return ratelimit.Route{}, false
	}
	return ratelimit.Route{Model: fb.WireName, Provider: other, Limited: true}, true
}

// RateLimitTable is the limits table of cfg: the documented tier, every configured
// model's names and the [rate_limits.models] overrides.
func RateLimitTable(cfg *config.Config) *ratelimit.Table {
	var names []ratelimit.ModelNames
	for _, m := range cfg.Models {
		names = append(names, ratelimit.ModelNames{Wire: m.WireName, Aliases: append([]string{m.Name}, m.Aliases...)})
	}
	overrides := map[string]ratelimit.Limits{}
	for name, l := range cfg.RateLimits.Models {
		overrides[name] = ratelimit.Limits{RPM: l.RPM, RPD: l.RPD, TPM: l.TPM, TPD: l.TPD}
	}
	tier := ratelimit.TierExp
	if cfg.RateLimits.Tier == string(ratelimit.TierProd) {
		tier = ratelimit.TierProd
	}
	return ratelimit.NewTable(tier, names, overrides)
}

// accountOf identifies who a server counts calls against: its base URL and a
// fingerprint of the key, never the key itself, since the state file is shared.
func accountOf(p config.Provider, apiKey string) string {
	sum := sha256.Sum256([]byte(apiKey))
	return p.BaseURL + "#" + hex.EncodeToString(sum[:6])
}

// ModelName returns the configured name of the model with wire name wire (the one
// that answered a call), or wire itself when no configured model has it.
func (e *Env) ModelName(wire string) string {
	if m, err := e.Config.Model(wire); err == nil {
		return m.Name
	}
	return wire
}

// RateGauge is the active model's rate-limit figures with a known limit (rpm, tpm,
// rpd, tpd) for the footer and ACP usage updates; none when rate limits are off or
// no limit is known. It reads the shared state file and waits for nothing.
func (e *Env) RateGauge() []ratelimit.Counter {
	if e.Config.RateLimits.Off {
		return nil
	}
	m, p, err := e.ModelFor()
	if err != nil {
		return nil
	}
	snap, err := ratelimit.NewStore(e.Config.Home).Snapshot(time.Now(), RateLimitTable(e.Config), accountOf(p, e.apiKeyOrEmpty(p)), m.WireName)
	if err != nil {
		return nil
	}
	return snap.Counters()
}
