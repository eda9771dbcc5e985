package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/agent"
)

var waited = fakeRunner{
	events: []agent.Event{{Kind: agent.EventRateLimitWait, WaitSeconds: 45, Text: "the server asked to wait 45s before the next try"}},
	result: agent.Result{Text: "done", Stop: agent.StopEndTurn, Model: "fallback/wire"},
}

// Text mode says on stderr what the run waits for and how long.
func TestTextModeSaysWhatItWaitsFor(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if _, err := Run(context.Background(), waited, "p", Options{Format: FormatText, Stdout: &out, Stderr: &errOut}); err != nil {
		t.Fatal(err)
	}
	if want := "albert-code: waiting 45s: the server asked to wait 45s before the next try\n"; errOut.String() != want {
		t.Fatalf("stderr = %q, want %q", errOut.String(), want)
	}
}

// stream-json carries the wait as a rate_limit_wait event with its length.
func TestStreamJSONCarriesTheWait(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if _, err := Run(context.Background(), waited, "p", Options{Format: FormatStreamJSON, Stdout: &out}); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	var ev struct {
		Type        string  `json:"type"`
		WaitSeconds float64 `json:"wait_seconds"`
	}
	if err := json.Unmarshal([]byte(first), &ev); err != nil || ev.Type != "rate_limit_wait" || ev.WaitSeconds != 45 {
		t.Fatalf("first line %q: %+v, %v", first, ev, err)
	}
}

// The result names the model that answered, by its configured name, not the one
// the run started on.
func TestResultNamesTheModelThatAnswered(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	names := func(wire string) string { return map[string]string{"fallback/wire": "fallback"}[wire] }
	if _, err := Run(context.Background(), waited, "p", Options{Format: FormatJSON, Model: "primary", ModelName: names, Stdout: &out}); err != nil {
		t.Fatal(err)
	}
	var s Summary
	if err := json.Unmarshal(out.Bytes(), &s); err != nil || s.Model != "fallback" {
		t.Fatalf("summary %+v err %v, want model fallback", s, err)
	}
}
