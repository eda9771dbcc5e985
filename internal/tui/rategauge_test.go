package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// The footer shows the active model's rate-limit figures, each coloured at 80 %
// and 95 % of its limit.
func TestFooterColoursTheRateGaugeAt80And95Percent(t *testing.T) {
	t.Parallel()
	m := newScreen(t, 160, 40)
	m.rate = []ratelimit.Counter{{Name: "rpm", Used: 10, Limit: 50}, {Name: "tpm", Used: 105000, Limit: 128000}, {Name: "rpd", Used: 960, Limit: 1000}}
	footer := m.footer()
	if plain := ansi.Strip(footer); !strings.Contains(plain, "rpm 10/50 tpm 105k/128k rpd 960/1k · ctx") {
		t.Fatalf("footer %q, want the rate gauge before the context gauge", plain)
	}
	for _, want := range []string{m.theme.Footer.Render("rpm 10/50"), m.theme.Warn.Render("tpm 105k/128k"), m.theme.Error.Render("rpd 960/1k")} {
		if !strings.Contains(footer, want) {
			t.Errorf("footer %q lacks %q", footer, want)
		}
	}
	// A narrow screen drops the rate gauge rather than the essentials.
	narrow := newScreen(t, 60, 20)
	narrow.rate = m.rate
	if plain := ansi.Strip(narrow.footer()); strings.Contains(plain, "rpm") || !strings.Contains(plain, "mistral-medium") {
		t.Fatalf("narrow footer %q", plain)
	}
}

// With the shipped model and no configuration, the footer counts the calls made.
func TestFooterCountsTheShippedModelsCalls(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 160, 40, nil, fakemodel.Turn{Text: []string{"hello"}})
	l.ready()
	l.typeLine("say hello")
	l.idle()
	l.until("the rate gauge", func() bool { return l.shows("rpm 1/50") && l.shows("rpd 1/1k") && !l.shows("tpd 0/") })
}
