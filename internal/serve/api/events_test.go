package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

// The web console streams a run's events from the run store, so they must be
// there while the run goes, not only once it ends.
func TestRunEventsReachTheStoreWhileTheRunGoes(t *testing.T) {
	t.Parallel()
	h, _ := newNativeHarness(t, fakemodel.Turn{Text: []string{"one ", "two ", "three"}, ChunkDelay: 400 * time.Millisecond})
	var out asyncAnswer
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "count", "async": true}, &out)
	wantStatus(t, resp, body, http.StatusAccepted)
	var sawLive bool
	waitFor(t, "a delta recorded while the run is running", func() bool {
		evs, _ := h.store.Events(context.Background(), out.RunID, 0, 0)
		run, _ := h.store.Get(context.Background(), out.RunID)
		for _, e := range evs {
			if e.Type == "delta" && run.Status == runstore.Running {
				sawLive = true
			}
		}
		return sawLive || run.Status.Final()
	})
	if !sawLive {
		t.Fatal("no delta was in the store before the run ended")
	}
	waitFor(t, "the run to end", func() bool { return h.status(out.RunID) == "completed" })
	evs, err := h.store.Events(context.Background(), out.RunID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	var types []string
	for _, e := range evs {
		types = append(types, e.Type)
		var ev struct{ Text string }
		if e.Type == "delta" && json.Unmarshal(e.Data, &ev) == nil {
			text.WriteString(ev.Text)
		}
	}
	if text.String() != "one two three" || types[len(types)-1] != "stop" {
		t.Errorf("events %v carry text %q, want the deltas of \"one two three\" and a stop last", types, text.String())
	}
}
