package ratelimit_test

import (
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

func TestParseStatedReadsAlbertAndOtherWordings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		msg  string
		want ratelimit.Stated
	}{
		{"50 requests for Qwen/Qwen3-Coder-30B-A3B-Instruct per minute exceeded.", ratelimit.Stated{Kind: ratelimit.KindRPM, Value: 50, Model: "Qwen/Qwen3-Coder-30B-A3B-Instruct"}},
		{"1000 requests for openweight-large per day exceeded.", ratelimit.Stated{Kind: ratelimit.KindRPD, Value: 1000, Model: "openweight-large"}},
		{"128000 input tokens for m per minute exceeded. (remaining: 12)", ratelimit.Stated{Kind: ratelimit.KindTPM, Value: 128000, Model: "m"}},
		{"2460000 input tokens per day exceeded", ratelimit.Stated{Kind: ratelimit.KindTPD, Value: 2460000}},
		{"Limit exceeded: 50 requests per minute", ratelimit.Stated{Kind: ratelimit.KindRPM, Value: 50}},
		{"Daily token quota reached, try again per day tomorrow", ratelimit.Stated{Kind: ratelimit.KindTPD}},
		{"Rate limit exceeded.", ratelimit.Stated{}},
		{"", ratelimit.Stated{}},
	}
	for _, tc := range cases {
		if got := ratelimit.ParseStated(tc.msg); got != tc.want {
			t.Errorf("ParseStated(%q) = %+v, want %+v", tc.msg, got, tc.want)
		}
	}
}

func TestNextMidnightUTC(t *testing.T) {
	t.Parallel()
	paris := time.FixedZone("CET", 3600)
	at := time.Date(2026, 12, 31, 0, 30, 0, 0, paris) // 23:30 UTC the day before
	if got, want := ratelimit.NextMidnightUTC(at), time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestTableResolvesEveryNameToOneKeyAndLayersLimits(t *testing.T) {
	t.Parallel()
	tab := ratelimit.NewTable(ratelimit.TierExp,
		[]ratelimit.ModelNames{{Wire: "Qwen/Qwen3-Coder-30B-A3B-Instruct", Aliases: []string{"coder"}}, {Wire: "x/unknown", Aliases: []string{"u"}}},
		map[string]ratelimit.Limits{"u": {RPM: 7}, "openweight-large": {TPM: 1}})
	const qwen = "Qwen/Qwen3-Coder-30B-A3B-Instruct"
	for _, name := range []string{qwen, "qwen/qwen3-coder-30b-a3b-instruct", "openweight-code", "coder", "qwen3-coder-30b-a3b-instruct"} {
		if got := tab.Canonical(name); got != qwen {
			t.Errorf("Canonical(%q) = %q, want %q", name, got, qwen)
		}
	}
	if got := tab.Limits(qwen, ratelimit.Limits{}); got != (ratelimit.Limits{RPM: 50, RPD: 1000, TPM: 128000, TPD: 2460000}) {
		t.Errorf("documented EXP limits = %+v", got)
	}
	if got := tab.Limits(qwen, ratelimit.Limits{RPM: 20}); got.RPM != 20 || got.TPM != 128000 {
		t.Errorf("a limit stated by the server must win over the documented one: %+v", got)
	}
	if got := tab.Limits("x/unknown", ratelimit.Limits{RPM: 20}); got.RPM != 7 {
		t.Errorf("configuration (by alias) must win: %+v", got)
	}
	if got := tab.Limits("openai/gpt-oss-120b", ratelimit.Limits{}); got.TPM != 1 || got.RPM != 10 {
		t.Errorf("an override by alias merges field by field: %+v", got)
	}
	prod := ratelimit.NewTable(ratelimit.TierProd, nil, nil)
	if got := prod.Limits(qwen, ratelimit.Limits{}); got.RPM != 100 || got.TPD != 0 {
		t.Errorf("PROD tier = %+v, want 100 rpm and unlimited tpd", got)
	}
	if src := tab.Source("x/unknown", ratelimit.Limits{}); src != "configuration" {
		t.Errorf("source = %q", src)
	}
}
