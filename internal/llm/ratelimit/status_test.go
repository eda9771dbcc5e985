package ratelimit_test

import (
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

func TestSnapshotShowsTheSharedWindowWithoutBookingASlot(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{RPM: 30}, fakealbert.Limits{})
	limits := map[string]ratelimit.Limits{modelA: {RPM: 30, TPM: 1000}}
	p := r.layer(limits, false)
	ctx := ctxFor(t)
	for range 2 {
		if _, _, err := call(ctx, p, modelA); err != nil {
			t.Fatal(err)
		}
	}
	r.clock.Slept()
	store := ratelimit.NewStore(r.dir)
	table := ratelimit.NewTable(ratelimit.TierExp, []ratelimit.ModelNames{{Wire: modelA, Aliases: []string{"alias-a"}}}, limits)
	snap, err := store.Snapshot(r.clock.Now(), table, r.server.URL(), "alias-a")
	if err != nil {
		t.Fatal(err)
	}
	text := snap.Text()
	for _, want := range []string{"Model test/model-a", "limits: configuration", "Requests: 2/30 (6%) [#···", "Tokens:   ", "2.05s minimum"} {
		if !strings.Contains(text, want) {
			t.Errorf("snapshot text lacks %q:\n%s", want, text)
		}
	}
	if snap.Tokens == 0 || snap.Tokens > 1000 {
		t.Errorf("tokens in window = %d, want the two calls' reported input tokens", snap.Tokens)
	}
	// Reading twice books nothing and waits for nothing.
	if again, _ := store.Snapshot(r.clock.Now(), table, r.server.URL(), modelA); again.Requests != 2 || len(r.clock.Slept()) != 0 {
		t.Errorf("second snapshot: %d requests, waits %v", again.Requests, r.clock.Slept())
	}
	r.clock.Advance(61 * time.Second)
	if later, _ := store.Snapshot(r.clock.Now(), table, r.server.URL(), modelA); later.Requests != 0 {
		t.Errorf("after 61 s the window still holds %d requests", later.Requests)
	}
}
