package native

import (
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// The console's quota gauges read the same shared state the calls write: after
// one answered call, the configured model shows one request today against its
// known daily limit.
func TestRateSnapshotsCountTodaysCalls(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakemodel.Turn{Text: []string{"ok"}, Usage: &fakemodel.Usage{PromptTokens: 7, CompletionTokens: 1}})
	if _, err := w.native.Run(t.Context(), w.request("hi"), func(backend.Event) {}); err != nil {
		t.Fatal(err)
	}
	snaps := w.native.RateSnapshots(time.Now())
	if len(snaps) == 0 {
		t.Fatal("no snapshot for the configured models")
	}
	var requests int
	for _, s := range snaps {
		requests += s.DayRequests
		if len(s.Counters()) == 0 && s.Exhausted == nil {
			t.Errorf("snapshot of %s has no known limit: it should be left out", s.Model)
		}
	}
	if requests != 1 {
		t.Errorf("today's requests over %d models = %d, want 1", len(snaps), requests)
	}
}
