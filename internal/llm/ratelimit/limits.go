// Package ratelimit keeps a user's model calls under their provider's rate limits and
// quotas, across every albert-code process of the user: a predictive rolling window
// over requests and input tokens, Retry-After handling, terminal daily quotas and a
// temporary switch to a fallback model after repeated 429s. It wraps an llm.Provider.
package ratelimit

import (
	"strings"
)

// Limits are a model's caps; zero means unknown or unlimited.
type Limits struct {
	RPM int `json:"rpm,omitempty"` // requests per minute
	RPD int `json:"rpd,omitempty"` // requests per day (UTC)
	TPM int `json:"tpm,omitempty"` // input tokens per minute
	TPD int `json:"tpd,omitempty"` // input tokens per day (UTC)
}

// Over returns l with every non-zero field of o in place of l's.
func (l Limits) Over(o Limits) Limits {
	pick := func(a, b int) int {
		if b > 0 {
			return b
		}
		return a
	}
	return Limits{RPM: pick(l.RPM, o.RPM), RPD: pick(l.RPD, o.RPD), TPM: pick(l.TPM, o.TPM), TPD: pick(l.TPD, o.TPD)}
}

// IsZero reports whether no cap is known.
func (l Limits) IsZero() bool { return l == Limits{} }

// Tier is an Albert account tier: the documented limits differ between them.
type Tier string

const (
	// TierExp is the experimentation tier every new Albert key starts on.
	TierExp Tier = "exp"
	// TierProd is the production tier granted on request.
	TierProd Tier = "prod"
)

// Documented is one model of the documented Albert tiers table.
type Documented struct {
	// ID is the canonical wire name.
	ID string
	// Aliases are the other names Albert and users give the model.
	Aliases   []string
	Exp, Prod Limits
	// Assumed marks limits not documented for this model (ShippedSource).
	Assumed bool
}

// DocumentedSource is where the shipped table comes from.
const DocumentedSource = "https://albert.sites.beta.gouv.fr/prices/ (as quoted by the original's DOCUMENTED_MODEL_LIMITS, notes §3.2; aliases from the Albert docs, August 2026, notes protocols §3.6)"

// DocumentedTiers is the table of documented Albert limits shipped in the binary.
// Zero tpd on the PROD tier means unlimited. The August 2026 Albert docs spell the
// ids without an organisation prefix; both spellings are aliases of one entry so that
// windows and 429 counts never split between them.
var DocumentedTiers = []Documented{
	{
		ID:      "openai/gpt-oss-120b",
		Aliases: []string{"gpt-oss-120b", "openweight-large"},
		Exp:     Limits{RPM: 10, RPD: 1000, TPM: 128000, TPD: 1280000},
		Prod:    Limits{RPM: 50, RPD: 5000, TPM: 246000},
	},
	{
		ID:      "Qwen/Qwen3-Coder-30B-A3B-Instruct",
		Aliases: []string{"qwen3-coder-30b-a3b-instruct", "openweight-code"},
		Exp:     Limits{RPM: 50, RPD: 1000, TPM: 128000, TPD: 2460000},
		Prod:    Limits{RPM: 100, RPD: 50000, TPM: 246000},
	},
	{
		ID:      "mistralai/mistral-small-3.2-24b-instruct-2506",
		Aliases: []string{"mistral-small-3-2-24b-instruct-2506", "openweight-medium"},
		Exp:     Limits{RPM: 50, RPD: 1000, TPM: 128000, TPD: 2460000},
		Prod:    Limits{RPM: 100, RPD: 50000, TPM: 246000},
	},
	{
		ID:      "mistralai/ministral-3-8b-instruct-2512",
		Aliases: []string{"ministral-3-8b-instruct-2512", "openweight-small"},
		Exp:     Limits{RPM: 50, RPD: 1000, TPM: 128000, TPD: 2460000},
		Prod:    Limits{RPM: 100, RPD: 50000, TPM: 246000},
	},
	// The three models the official product ships (ea:config/opencode.template.json,
	// July 2026) are not on the prices page the original quoted; see ShippedSource.
	{
		ID:      "mistralai/Mistral-Medium-3.5-128B",
		Aliases: []string{"mistral-medium-3.5-128b"},
		Exp:     openWeightExp,
		Prod:    openWeightProd,
		Assumed: true,
	},
	{
		ID:      "deepseek-ai/DeepSeek-V4-Flash",
		Aliases: []string{"deepseek-v4-flash"},
		Exp:     openWeightExp,
		Prod:    openWeightProd,
		Assumed: true,
	},
	{
		ID:      "Qwen/Qwen3.6-27B",
		Aliases: []string{"qwen3.6-27b"},
		Exp:     openWeightExp,
		Prod:    openWeightProd,
		Assumed: true,
	},
}

// ShippedSource says where the limits of the shipped models come from: Albert
// documents no per-model figure for them, so they take the figures the prices page
// gives three of its four models (openWeightExp, openWeightProd), the tier every
// Albert text model shared when it was read. By judgement, until /v1/me/info or a
// 429 says otherwise; [rate_limits.models] overrides them.
const ShippedSource = "assumed, not documented per model (December 2026): the figures https://albert.sites.beta.gouv.fr/prices/ gives three of its four open-weight models"

var (
	openWeightExp  = Limits{RPM: 50, RPD: 1000, TPM: 128000, TPD: 2460000}
	openWeightProd = Limits{RPM: 100, RPD: 50000, TPM: 246000}
)

// ModelNames is one model known by several names: its wire name first.
type ModelNames struct {
	Wire    string
	Aliases []string
}

// Table resolves any name of a model to one canonical key and its limits. Limits
// come, highest priority first, from configuration, from what the server stated
// in a 429 body (kept in the shared state), and from the documented tier.
type Table struct {
	canon      map[string]string // lower-case name → canonical key
	documented map[string]Limits // canonical key → documented limits of the tier
	overrides  map[string]Limits // canonical key → configured limits
	assumed    map[string]bool   // canonical key → the tier's limits are assumed
}

// NewTable builds a table for tier from the documented tiers, the models of the
// configuration (their names and aliases join the documented ones) and the
// configured overrides, keyed by any name of a model.
func NewTable(tier Tier, models []ModelNames, overrides map[string]Limits) *Table {
	t := &Table{canon: map[string]string{}, documented: map[string]Limits{}, overrides: map[string]Limits{}, assumed: map[string]bool{}}
	for _, d := range DocumentedTiers {
		key := d.ID
		t.alias(key, key)
		for _, a := range d.Aliases {
			t.alias(a, key)
		}
		t.assumed[key] = d.Assumed
		if tier == TierProd {
			t.documented[key] = d.Prod
		} else {
			t.documented[key] = d.Exp
		}
	}
	for _, m := range models {
		key := t.Canonical(m.Wire)
		t.alias(m.Wire, key)
		for _, a := range m.Aliases {
			t.alias(a, key)
		}
	}
	for name, l := range overrides {
		key := t.Canonical(name)
		t.overrides[key] = t.overrides[key].Over(l)
	}
	return t
}

// alias maps name to key unless name is already taken: documented names and wire
// names win over a configuration alias that happens to collide with them.
func (t *Table) alias(name, key string) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		return
	}
	if _, taken := t.canon[n]; !taken {
		t.canon[n] = key
	}
}

// Canonical returns the key every name of the model shares: the documented id, else
// the configured wire name, else name itself.
func (t *Table) Canonical(name string) string {
	if key, ok := t.canon[strings.ToLower(strings.TrimSpace(name))]; ok {
		return key
	}
	return name
}

// Limits returns the caps for the model key, learned from the server when the
// configuration does not fix them.
func (t *Table) Limits(key string, learned Limits) Limits {
	return t.documented[key].Over(learned).Over(t.overrides[key])
}

// Source says where the model's limits come from, for /rpm and `quota`.
func (t *Table) Source(key string, learned Limits) string {
	switch {
	case !t.overrides[key].IsZero():
		return "configuration"
	case !learned.IsZero():
		return "stated by the server in a 429"
	case !t.documented[key].IsZero() && t.assumed[key]:
		return "assumed Albert tier (no per-model figure is documented)"
	case !t.documented[key].IsZero():
		return "documented Albert tier"
	}
	return "unknown"
}
