package ratelimit_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
	"github.com/etalab-ia/albert-code/internal/llm/retry"
)

func TestDailyQuotaIsTerminalRecordedAndForgottenAtMidnightUTC(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{TPD: 30}, fakealbert.Limits{})
	p := retry.Wrap(r.layer(nil, false), retry.Policy{Sleep: r.clock.Sleep})
	ctx := ctxFor(t)
	for {
		_, _, err := call(ctx, p, modelA)
		if err == nil {
			continue
		}
		var qe *ratelimit.QuotaError
		if !errors.As(err, &qe) {
			t.Fatalf("error = %v, want a *ratelimit.QuotaError", err)
		}
		if llm.IsRetryable(err) {
			t.Fatal("a daily quota error must not be retryable")
		}
		for _, want := range []string{"daily input-token quota exhausted on test/model-a", "resets at 2026-12-01 00:00 UTC", "per day exceeded"} {
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("message %q lacks %q", err, want)
			}
		}
		break
	}
	if s := r.server.Stats(); s.TooMany != 1 {
		t.Fatalf("server saw %d refused calls, want 1: no retry after a daily quota", s.TooMany)
	}
	var file struct {
		Events []map[string]any `json:"events"`
	}
	data, err := os.ReadFile(filepath.Join(r.dir, "throttle_state.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &file); err != nil || len(file.Events) != 1 {
		t.Fatalf("throttle_state.json = %s (%v), want one event", data, err)
	}
	ev := file.Events[0]
	if ev["model_name"] != modelA || ev["reason"] != "daily-quota" || ev["recorded_at_iso"] != "2026-11-30T12:00:00Z" {
		t.Fatalf("event = %v, want model, reason and UTC time", ev)
	}

	// Another process, later the same day, fails at once without calling.
	other := r.layer(nil, false)
	r.clock.Advance(11 * time.Hour)
	if _, _, err := call(ctx, other, modelA); err == nil || !strings.Contains(err.Error(), "daily") {
		t.Fatalf("same day: err = %v, want the daily quota error", err)
	}
	if s := r.server.Stats(); s.TooMany != 1 {
		t.Fatalf("the exhausted model was called again the same day (%d refusals)", s.TooMany)
	}
	// After midnight UTC the record is forgotten and the model answers again.
	r.clock.Advance(time.Hour)
	if _, _, err := call(ctx, other, modelA); err != nil {
		t.Fatalf("after the reset: %v", err)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "throttle_state.json")); !os.IsNotExist(err) {
		t.Fatalf("throttle_state.json still there after the reset (%v)", err)
	}
}

func TestDailyQuotaMovesTheSameCallToTheFallback(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{RPD: 1}, fakealbert.Limits{})
	p := r.layer(nil, true)
	ctx := ctxFor(t)
	if _, _, err := call(ctx, p, modelA); err != nil {
		t.Fatal(err)
	}
	resp, evs, err := call(ctx, p, modelA)
	if err != nil {
		t.Fatalf("second call: %v, want the fallback's answer", err)
	}
	if resp.Message.Model != modelB {
		t.Fatalf("answered by %q, want %q", resp.Message.Model, modelB)
	}
	sw := switches(evs)
	if len(sw) != 1 || sw[0].Name != modelB || !strings.Contains(sw[0].Text, "daily quota") {
		t.Fatalf("switch events = %+v, want one to %s naming the daily quota", sw, modelB)
	}
}

func TestCorruptStateFilesAreRebuiltWithAWarning(t *testing.T) {
	t.Parallel()
	r := newRig(t, fakealbert.Limits{}, fakealbert.Limits{})
	for _, name := range []string{"ratelimit_state.json", "throttle_state.json"} {
		if err := os.WriteFile(filepath.Join(r.dir, name), []byte("{not json"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	store := ratelimit.NewStore(r.dir)
	p := r.layerWith(store, nil, false)
	if _, _, err := call(ctxFor(t), p, modelA); err != nil {
		t.Fatalf("a corrupt state file stopped the call: %v", err)
	}
	w := strings.Join(store.Warnings(), "\n")
	for _, name := range []string{"ratelimit_state.json", "throttle_state.json"} {
		if !strings.Contains(w, name) || !strings.Contains(w, "rebuilt") {
			t.Fatalf("warnings %q do not name %s as rebuilt", w, name)
		}
	}
	data, err := os.ReadFile(filepath.Join(r.dir, "ratelimit_state.json"))
	if err != nil || !json.Valid(data) {
		t.Fatalf("state file not rebuilt: %s (%v)", data, err)
	}
	if again := store.Warnings(); len(again) != 0 {
		t.Fatalf("warnings repeated: %v", again)
	}
}

func switches(evs []llm.StreamEvent) []llm.StreamEvent {
	var out []llm.StreamEvent
	for _, e := range evs {
		if e.Kind == llm.EventModelSwitch {
			out = append(out, e)
		}
	}
	return out
}
