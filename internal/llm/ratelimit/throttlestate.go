package ratelimit

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// reasonDailyQuota is the reason recorded for an exhausted daily quota, as the
// original wrote it.
const reasonDailyQuota = "daily-quota"

// Exhausted is one daily quota a model ran out of, as throttle_state.json keeps it:
// model, reason and UTC time, until the next midnight UTC.
type Exhausted struct {
	Model       string    `json:"model_name"`
	Reason      string    `json:"reason"`
	Limit       Kind      `json:"limit,omitempty"`
	BodyExcerpt string    `json:"body_excerpt,omitempty"`
	RecordedAt  time.Time `json:"recorded_at_iso"`
}

// ResetAt is when the quota comes back.
func (e Exhausted) ResetAt() time.Time { return NextMidnightUTC(e.RecordedAt) }

// throttleState is throttle_state.json: one event per model, the latest.
type throttleState struct {
	Events []Exhausted `json:"events"`
	// changed says the file must be written back.
	changed bool
}

func (t *throttleState) forgetReset(now time.Time) {
	kept := t.Events[:0]
	for _, e := range t.Events {
		if now.Before(e.ResetAt()) {
			kept = append(kept, e)
		}
	}
	t.changed = t.changed || len(kept) != len(t.Events)
	t.Events = kept
}

func (t *throttleState) find(model string) (Exhausted, bool) {
	for _, e := range t.Events {
		if e.Model == model {
			return e, true
		}
	}
	return Exhausted{}, false
}

func (t *throttleState) record(e Exhausted) {
	t.forget(e.Model)
	t.Events = append(t.Events, e)
	t.changed = true
}

func (t *throttleState) forget(model string) {
	kept := t.Events[:0]
	for _, e := range t.Events {
		if e.Model != model {
			kept = append(kept, e)
		}
	}
	t.changed = t.changed || len(kept) != len(t.Events)
	t.Events = kept
}

// save writes the file, or removes it when nothing is exhausted, as the original
// left no file behind after a reset.
func (t *throttleState) save(path string) error {
	if len(t.Events) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return writeJSON(path, t)
}
