package ratelimit

import (
	"bytes"
	"encoding/json"
	"time"
)

// UnmarshalJSON reads both our throttle_state.json ({"events": [...]}) and the
// original's, which held one record, the latest, at the top level (notes §3.5); its
// naive timestamps are UTC. Read the original's way, the file is rewritten ours on
// the next change, the record kept.
func (t *throttleState) UnmarshalJSON(data []byte) error {
	var probe struct {
		Events    json.RawMessage `json:"events"`
		ModelName *string         `json:"model_name"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return err
	}
	if probe.Events == nil && probe.ModelName != nil {
		var old struct {
			Model       string `json:"model_name"`
			Reason      string `json:"reason"`
			BodyExcerpt string `json:"body_excerpt"`
			RecordedAt  string `json:"recorded_at_iso"`
		}
		if err := json.Unmarshal(data, &old); err != nil {
			return err
		}
		at, err := parseOriginalTime(old.RecordedAt)
		if err != nil {
			return err
		}
		t.Events = []Exhausted{{Model: old.Model, Reason: old.Reason, BodyExcerpt: old.BodyExcerpt, RecordedAt: at}}
		return nil
	}
	type ours throttleState // without this method
	var v ours
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&v); err != nil {
		return err
	}
	t.Events = v.Events
	return nil
}

// parseOriginalTime reads Python's isoformat(): with an offset, or naive (UTC).
func parseOriginalTime(s string) (time.Time, error) {
	if at, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return at, nil
	}
	return time.ParseInLocation("2006-01-02T15:04:05.999999", s, time.UTC)
}
