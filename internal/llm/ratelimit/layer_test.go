package ratelimit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

func TestCallsAreSpacedBy60OverRPMPlus50ms(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{RPM: 30}, fakealbert.Limits{})
	p := r.layer(map[string]ratelimit.Limits{modelA: {RPM: 30}}, false)
	ctx := ctxFor(t)
	for range 4 {
		if _, _, err := call(ctx, p, modelA); err != nil {
			t.Fatal(err)
		}
	}
	want := []time.Duration{2050 * time.Millisecond, 2050 * time.Millisecond, 2050 * time.Millisecond}
	if got := r.clock.Slept(); !equalDurations(got, want) {
		t.Fatalf("waits = %v, want %v", got, want)
	}
	if s := r.server.Stats(); s.TooMany != 0 || s.Served != 4 {
		t.Fatalf("server stats = %+v, want 4 served and no 429", s)
	}
}

func TestProcessesShareOneWindowThroughTheStateFile(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{RPM: 30}, fakealbert.Limits{})
	limits := map[string]ratelimit.Limits{modelA: {RPM: 30}}
	first, second := r.layer(limits, false), r.layer(limits, false)
	ctx := ctxFor(t)
	// Each layer has its own Store, as separate processes would; one calls by the
	// alias, the other by the wire name, and still they share one window.
	for i := range 4 {
		p, name := first, "alias-a"
		if i%2 == 1 {
			p, name = second, modelA
		}
		if _, _, err := call(ctx, p, name); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.clock.TotalSlept(); got != 3*2050*time.Millisecond {
		t.Fatalf("total wait = %v, want 3 × 2.05 s", got)
	}
	if s := r.server.Stats(); s.TooMany != 0 {
		t.Fatalf("server refused %d calls, want none", s.TooMany)
	}
}

func TestTokensArePredictedSoTheTokenLimitIsNeverPassed(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{TPM: 300}, fakealbert.Limits{})
	p := r.layer(map[string]ratelimit.Limits{modelA: {TPM: 300}}, false)
	ctx := ctxFor(t)
	big := llm.Request{Model: modelA, Messages: []llm.Message{{Role: llm.RoleUser, Content: strings.Repeat("x", 600)}}}
	for range 3 {
		if _, err := p.Stream(ctx, big, nil); err != nil {
			t.Fatal(err)
		}
	}
	// The fake counts ~205 tokens for each request; two never fit in 300, so each
	// waits for the previous one to leave the 60 s window. The first estimate (600/4
	// = 150) is calibrated from the first answer's usage.
	if got := r.clock.Slept(); !equalDurations(got, []time.Duration{time.Minute, time.Minute}) {
		t.Fatalf("waits = %v, want two full windows", got)
	}
	if s := r.server.Stats(); s.TooMany != 0 {
		t.Fatalf("server refused %d calls for tokens, want none", s.TooMany)
	}
}

func TestLimitStatedInA429IsLearnedAndTheWindowWaitsForIt(t *testing.T) {
	t.Parallel()
	// Nothing tells the client modelB's limit: the server states it in its 429.
	r := newRig(t, fakealbert.Limits{}, fakealbert.Limits{RPM: 3})
	p := r.layer(nil, false)
	ctx := ctxFor(t)
	for range 3 {
		if _, _, err := call(ctx, p, modelB); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := call(ctx, p, modelB)
	apiErr := asAPIError(t, err)
	if apiErr.Status != 429 || apiErr.RetryAfter != 20*time.Second+100*time.Millisecond {
		t.Fatalf("4th call: status %d, Retry-After %v; want 429 and 60/3+0.1 s from the body", apiErr.Status, apiErr.RetryAfter)
	}
	if _, _, err := call(ctx, p, modelB); err != nil {
		t.Fatal(err)
	}
	// Three requests at t=0 fill a window of 3: the next fits at t=60 s.
	if got := r.clock.TotalSlept(); got != time.Minute {
		t.Fatalf("waited %v, want 60 s", got)
	}
	if s := r.server.Stats(); s.TooMany != 1 {
		t.Fatalf("server refused %d calls, want only the one that taught the limit", s.TooMany)
	}
}

func TestBusy503WithRetryAfterHoldsTheNextCallBack(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{}, fakealbert.Limits{})
	r.server.Busy(1, 10)
	p := r.layer(nil, false)
	ctx := ctxFor(t)
	_, _, err := call(ctx, p, modelA)
	if e := asAPIError(t, err); e.Status != 503 || e.RetryAfter != 10*time.Second {
		t.Fatalf("got %d after %v, want 503 with Retry-After 10 s", e.Status, e.RetryAfter)
	}
	if _, _, err := call(ctx, p, modelA); err != nil {
		t.Fatal(err)
	}
	if got := r.clock.TotalSlept(); got != 10*time.Second {
		t.Fatalf("waited %v before the next call, want 10 s", got)
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func asAPIError(t *testing.T, err error) *llm.APIError {
	t.Helper()
	e, ok := err.(*llm.APIError)
	if !ok {
		t.Fatalf("error = %v (%T), want *llm.APIError", err, err)
	}
	return e
}

// A model with no known limit costs no write to the shared state: its calls are
// remembered in memory and handed over only when a 429 teaches a limit.
func TestCallsWithNoKnownLimitLeaveTheStateFileAlone(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{}, fakealbert.Limits{})
	p := r.layer(nil, false)
	ctx := ctxFor(t)
	for range 5 {
		if _, _, err := call(ctx, p, modelB); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(r.dir, "ratelimit_state.json")); !os.IsNotExist(err) {
		t.Fatalf("five calls with no known limit wrote the shared state (stat: %v)", err)
	}
	if r.clock.TotalSlept() != 0 {
		t.Fatalf("calls with no known limit waited %v", r.clock.TotalSlept())
	}
}
