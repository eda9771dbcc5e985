package ratelimit_test

import (
	"reflect"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// The gauge counts the last minute and today's calls, as every process of the user
// sees them through the state file, and leaves out figures with no known limit.
func TestGaugeCountsTheMinuteAndTheDay(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{}, fakealbert.Limits{})
	limits := map[string]ratelimit.Limits{modelA: {RPM: 30, RPD: 100, TPD: 100000}}
	ctx := ctxFor(t)
	for range 3 {
		if _, _, err := call(ctx, r.layer(limits, false), modelA); err != nil {
			t.Fatal(err)
		}
	}
	table := ratelimit.NewTable(ratelimit.TierExp, []ratelimit.ModelNames{{Wire: modelA}}, limits)
	snap, err := ratelimit.NewStore(r.dir).Snapshot(r.clock.Now(), table, r.server.URL(), modelA)
	if err != nil {
		t.Fatal(err)
	}
	got := snap.Counters()
	if len(got) != 3 || got[0].Name != "rpm" || got[0].Used != 3 || got[0].Limit != 30 ||
		got[1].Name != "rpd" || got[1].Used != 3 || got[2].Name != "tpd" || got[2].Used <= 0 {
		t.Fatalf("counters = %+v, want rpm 3/30, rpd 3/100 and today's tokens", got)
	}
	// A minute later the window is empty, the day still counts.
	r.clock.Advance(2 * 60e9)
	snap, err = ratelimit.NewStore(r.dir).Snapshot(r.clock.Now(), table, r.server.URL(), modelA)
	if err != nil {
		t.Fatal(err)
	}
	if c := snap.Counters(); c[0].Used != 0 || c[1].Used != 3 || !reflect.DeepEqual(c[2], got[2]) {
		t.Fatalf("after two minutes: %+v", c)
	}
}
