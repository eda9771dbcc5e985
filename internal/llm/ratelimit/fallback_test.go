package ratelimit_test

import (
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/retry"
)

func TestTwoConsecutive429sContinueTheSameCallOnTheFallbackFor60s(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{}, fakealbert.Limits{})
	r.server.Inject(
		fakealbert.Canned{Status: 429, Body: perMinuteBody},
		fakealbert.Canned{Status: 429, Body: perMinuteBody},
	)
	p := retry.Wrap(r.layer(nil, true), retry.Policy{Sleep: r.clock.Sleep, Rand: func() float64 { return 0 }})
	ctx := ctxFor(t)
	resp, evs, err := call(ctx, p, modelA)
	if err != nil {
		t.Fatalf("the call failed instead of continuing on the fallback: %v", err)
	}
	if resp.Message.Model != modelB {
		t.Fatalf("answered by %q, want the fallback %q", resp.Message.Model, modelB)
	}
	var kinds []llm.EventKind
	for _, e := range evs {
		kinds = append(kinds, e.Kind)
	}
	sw := switches(evs)
	if len(sw) != 1 || sw[0].Name != modelB || !strings.Contains(sw[0].Text, "2 consecutive 429s") {
		t.Fatalf("events %v, switches %+v: want one retry then one switch to %s", kinds, sw, modelB)
	}

	// Within 60 s the primary is not tried; the switch is not announced again.
	r.clock.Advance(30 * time.Second)
	resp, evs, err = call(ctx, p, modelA)
	if err != nil || resp.Message.Model != modelB || len(switches(evs)) != 0 {
		t.Fatalf("at +30 s: model %v, err %v, switches %v; want the fallback, silently", resp, err, switches(evs))
	}
	// After 60 s the primary comes back, and the face is told.
	r.clock.Advance(31 * time.Second)
	resp, evs, err = call(ctx, p, modelA)
	if err != nil || resp.Message.Model != modelA {
		t.Fatalf("at +61 s: %v, %v; want the primary back", resp, err)
	}
	if sw := switches(evs); len(sw) != 1 || sw[0].Name != modelA || !strings.Contains(sw[0].Text, "back on") {
		t.Fatalf("switches %+v, want one 'back on %s'", sw, modelA)
	}
	if s := r.server.Stats(); s.Canned != 2 || s.Served != 3 {
		t.Fatalf("server stats %+v: want the two 429s then three answers", s)
	}
}

func TestWithoutFallbackThe429IsReturnedForTheRetryPolicy(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{}, fakealbert.Limits{})
	r.server.Inject(fakealbert.Canned{Status: 429, Body: perMinuteBody}, fakealbert.Canned{Status: 429, Body: perMinuteBody})
	p := retry.Wrap(r.layer(nil, false), retry.Policy{Sleep: r.clock.Sleep, Rand: func() float64 { return 0 }})
	resp, _, err := call(ctxFor(t), p, modelA)
	if err != nil || resp.Message.Model != modelA {
		t.Fatalf("%v, %v: want the third attempt on the primary to succeed", resp, err)
	}
	// Each retry waited the body's 60/30 + 0.1 s, once (the retry policy's sleep
	// covers the block, so acquire does not wait it again).
	if got := r.clock.TotalSlept(); got != 2*2100*time.Millisecond {
		t.Fatalf("waited %v, want 2 × 2.1 s", got)
	}
}
