package api

import (
	"context"
	"encoding/json"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

// eventFlushEvery bounds how long a text delta waits in memory before it reaches
// the run store, where the web console streams it from. Judgement: a quarter of
// a second reads as live, and batches a fast model's many deltas into a few
// transactions instead of one each.
const eventFlushEvery = 250 * time.Millisecond

// eventLog records a run's events in the run store as they happen. The runner
// calls emit from one goroutine at a time, so it needs no lock.
type eventLog struct {
	s       *Server
	id      string
	attempt int
	pending []runstore.Event
	last    time.Time
}

func (s *Server) newEventLog(id string) *eventLog { return &eventLog{s: s, id: id, last: time.Now()} }

// emit keeps ev and writes what is pending when it is not a text or reasoning
// delta, or the last write is old enough.
func (l *eventLog) emit(ev backend.Event) {
	data, err := json.Marshal(ev)
	if err != nil {
		return
	}
	l.pending = append(l.pending, runstore.Event{Attempt: l.attempt, Backend: l.s.opts.Backend.Name(),
		Type: string(ev.Kind), Data: data, Time: time.Now()})
	streamed := ev.Kind == backend.EventDelta || ev.Kind == backend.EventReasoning
	if !streamed || time.Since(l.last) >= eventFlushEvery {
		l.flush()
	}
}

// forAttempt returns emit for the attempt numbered index, after writing what
// the previous attempt left pending.
func (l *eventLog) forAttempt(index int) func(backend.Event) {
	l.flush()
	l.attempt = index
	return l.emit
}

func (l *eventLog) flush() {
	l.last = time.Now()
	if len(l.pending) == 0 {
		return
	}
	ctx, cancel := storeContext()
	defer cancel()
	if err := l.s.opts.Store.AppendEvents(context.WithoutCancel(ctx), l.id, l.pending); err != nil {
		l.s.opts.Logger.Warn("record the events of a run", "run", l.id, "err", err)
	}
	l.pending = l.pending[:0]
}
