package ratelimit_test

import (
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// A wait for a slot long enough to notice is announced with its length; the 1.25 s
// debounce of a 50 rpm model is not.
func TestALongWaitForASlotIsAnnounced(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rpm      int
		wantWait time.Duration
	}{{rpm: 10, wantWait: 6050 * time.Millisecond}, {rpm: 50}} {
		r := newRig(t, fakealbert.Limits{}, fakealbert.Limits{})
		p := r.layer(map[string]ratelimit.Limits{modelA: {RPM: tc.rpm}}, false)
		ctx := ctxFor(t)
		if _, _, err := call(ctx, p, modelA); err != nil {
			t.Fatal(err)
		}
		_, evs, err := call(ctx, p, modelA)
		if err != nil {
			t.Fatal(err)
		}
		var waits []llm.StreamEvent
		for _, ev := range evs {
			if ev.Kind == llm.EventWait {
				waits = append(waits, ev)
			}
		}
		if tc.wantWait == 0 {
			if len(waits) != 0 {
				t.Errorf("rpm %d: announced %v, want no announcement for the debounce", tc.rpm, waits)
			}
			continue
		}
		if len(waits) != 1 || waits[0].Wait != tc.wantWait || !strings.Contains(waits[0].Text, "waiting 6.1s for a slot on "+modelA) {
			t.Errorf("rpm %d: wait events = %+v, want one of %s naming the model", tc.rpm, waits, tc.wantWait)
		}
	}
}

// A predicted wait longer than MaxWait ends the call with an error naming the setting.
func TestAWaitLongerThanMaxWaitIsAClearError(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{}, fakealbert.Limits{})
	store := ratelimit.NewStore(r.dir)
	table := ratelimit.NewTable(ratelimit.TierExp, []ratelimit.ModelNames{{Wire: modelA}}, map[string]ratelimit.Limits{modelA: {RPM: 10}})
	p := ratelimit.Wrap(r.provider(), ratelimit.Options{Account: r.server.URL(), Store: store, Table: table, Clock: r.clock, MaxWait: 5 * time.Second})
	ctx := ctxFor(t)
	if _, _, err := call(ctx, p, modelA); err != nil {
		t.Fatal(err)
	}
	_, _, err := call(ctx, p, modelA)
	if err == nil || !strings.Contains(err.Error(), "more than the 5s limit; raise rate_limits.max_wait") {
		t.Fatalf("err = %v, want the max_wait refusal", err)
	}
	if s := r.server.Stats(); s.Served != 1 {
		t.Fatalf("server served %d, want only the first call", s.Served)
	}
}
