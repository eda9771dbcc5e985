package ratelimit_test

import (
	"os"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// Every Albert model the binary ships has limits out of the box, in both tiers, so
// the throttle, the quota warnings and /quota work with a fresh configuration; the
// source says they are assumed rather than documented.
func TestEveryShippedAlbertModelHasLimits(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../config/defaults.toml")
	if err != nil {
		t.Fatal(err)
	}
	var defaults struct {
		Models []struct {
			Name     string `toml:"name"`
			Provider string `toml:"provider"`
			WireName string `toml:"wire_name"`
		} `toml:"models"`
	}
	if err := toml.Unmarshal(data, &defaults); err != nil {
		t.Fatal(err)
	}
	exp := ratelimit.NewTable(ratelimit.TierExp, nil, nil)
	prod := ratelimit.NewTable(ratelimit.TierProd, nil, nil)
	var n int
	for _, m := range defaults.Models {
		if m.Provider != "albert" {
			continue
		}
		n++
		key := exp.Canonical(m.WireName)
		for tier, tab := range map[string]*ratelimit.Table{"exp": exp, "prod": prod} {
			l := tab.Limits(key, ratelimit.Limits{})
			if l.RPM == 0 || l.RPD == 0 || l.TPM == 0 {
				t.Errorf("%s (%s) has no %s limits: %+v", m.Name, m.WireName, tier, l)
			}
		}
		if src := exp.Source(key, ratelimit.Limits{}); !strings.HasPrefix(src, "assumed Albert tier") {
			t.Errorf("%s: source %q, want it marked as assumed", m.Name, src)
		}
	}
	if n < 3 {
		t.Fatalf("found %d Albert models in defaults.toml, want the three shipped ones", n)
	}
	// A configured override still wins.
	over := ratelimit.NewTable(ratelimit.TierExp, []ratelimit.ModelNames{{Wire: "Qwen/Qwen3.6-27B", Aliases: []string{"qwen"}}},
		map[string]ratelimit.Limits{"qwen": {RPM: 7}})
	if got := over.Limits("Qwen/Qwen3.6-27B", ratelimit.Limits{}); got.RPM != 7 || got.TPM != 128000 {
		t.Errorf("override by name = %+v, want rpm 7 over the assumed tier", got)
	}
}
