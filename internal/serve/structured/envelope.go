package structured

import "encoding/json"

// Envelope is one native record of a run in the API's stable shape: sequence
// numbers start at 1 and run across attempts; attempt is the 0-based index.
type Envelope struct {
	Sequence  int             `json:"sequence"`
	Attempt   int             `json:"attempt"`
	Backend   string          `json:"backend"`
	EventType string          `json:"eventType"`
	Event     json.RawMessage `json:"event"`
}

// Envelopes lists the native records of every attempt (kept when the request's
// event mode is full), in order.
func (o *Outcome) Envelopes(backend string) []Envelope {
	var out []Envelope
	for _, a := range o.Attempts {
		for _, r := range a.Result.Records {
			out = append(out, Envelope{Sequence: len(out) + 1, Attempt: a.Index, Backend: backend, EventType: r.Type, Event: r.Event})
		}
	}
	return out
}
