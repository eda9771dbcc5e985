package ratelimit

import (
	"slices"
	"time"
)

// Calls to a model with no known limit take no slot in the shared state: writing the
// window twice per call under the file lock costs far more than the call's own work
// when nothing limits it (a local server, a model missing from the table). Each layer
// remembers those calls in memory instead, for one window, and hands them to the
// shared state when a 429 arrives, so a limit learned from that 429 is applied to
// what was really sent.

// remember records an unbooked call made at start that used tokens.
func (l *Layer) remember(key string, start time.Time, tokens int64, id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	cut := start.Add(-Window).UnixNano()
	recent := l.unbooked[key]
	i := 0
	for i < len(recent) && recent[i].At <= cut {
		i++
	}
	l.unbooked[key] = append(recent[i:], slot{At: start.UnixNano(), Tokens: tokens, ID: id})
}

// handOver moves the unbooked calls of key into the shared window.
func (l *Layer) handOver(key string) {
	l.mu.Lock()
	recent := l.unbooked[key]
	delete(l.unbooked, key)
	l.mu.Unlock()
	if len(recent) == 0 {
		return
	}
	now := l.opts.Clock.Now()
	l.logErr(l.opts.Store.update(now, func(st *sharedState, _ *throttleState) {
		m := st.model(key)
		m.Slots = append(m.Slots, recent...)
		slices.SortStableFunc(m.Slots, func(a, b slot) int { return int(a.At - b.At) })
		m.prune(now)
		if last := recent[len(recent)-1].At; last > m.LastSlot {
			m.LastSlot = last
		}
	}))
}
