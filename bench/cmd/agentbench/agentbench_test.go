package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// The floor client must pass the same checks as the agents, or the floor row
// would measure a different session.
func TestFloorPlaysTheSession(t *testing.T) {
	script, err := loadSession()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := script.TotalDelay(), 82*time.Millisecond; got != want {
		t.Errorf("scripted delay = %v, want %v (update docs/benchmarks/agent-overhead.md if this changes)", got, want)
	}
	_, work, err := newWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	srv := fakemodel.NewTest(t, script)

	var out bytes.Buffer
	if err := runFloor(srv.URL(), &out); err != nil {
		t.Fatalf("runFloor: %v", err)
	}
	if !strings.Contains(out.String(), finalText) {
		t.Errorf("floor printed %q, want it to contain %q", out.String(), finalText)
	}
	if other, err := checkRequests(srv.Requests(), len(script.Turns)); err != nil || other != 0 {
		t.Errorf("checkRequests = %d, %v; want 0, nil", other, err)
	}
}

func TestCheckRequestsRejectsSkippedTools(t *testing.T) {
	chat := func(turn int, body string) fakemodel.Recorded {
		return fakemodel.Recorded{Method: "POST", Path: "/v1/chat/completions", Turn: turn, Body: body}
	}
	tests := []struct {
		name string
		reqs []fakemodel.Recorded
		ok   bool
	}{
		{"complete", []fakemodel.Recorded{chat(0, ""), chat(1, notesMarker), chat(2, bashMarker)}, true},
		{"read result missing", []fakemodel.Recorded{chat(0, ""), chat(1, ""), chat(2, bashMarker)}, false},
		{"bash output missing", []fakemodel.Recorded{chat(0, ""), chat(1, notesMarker), chat(2, "")}, false},
		{"too few turns", []fakemodel.Recorded{chat(0, ""), chat(1, notesMarker)}, false},
		{"exhausted script", []fakemodel.Recorded{chat(0, ""), chat(1, notesMarker), chat(-1, bashMarker)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := checkRequests(tt.reqs, 3); (err == nil) != tt.ok {
				t.Errorf("checkRequests error = %v, want ok=%v", err, tt.ok)
			}
		})
	}
}

func TestQuantileNearestRank(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	for _, tt := range []struct{ q, want float64 }{{0.5, 5}, {0.9, 9}, {1, 10}, {0.01, 1}} {
		if got := quantile(xs, tt.q); got != tt.want {
			t.Errorf("quantile(%v) = %v, want %v", tt.q, got, tt.want)
		}
	}
}
