package agent

import (
	"fmt"
	"sync"
	"time"
)

// A server that accepts a request and then sends nothing looks, from the terminal,
// exactly like a hung program. After silenceFirst without a byte (a few seconds: a
// long prompt's first token rarely takes longer on Albert; a judgement), and then
// every silenceEvery, the faces are told what the run is waiting for.
const (
	defaultSilenceFirst = 5 * time.Second
	defaultSilenceEvery = 30 * time.Second
)

// silenceTimes are the two delays of a silenceWatch; zero fields take the defaults.
type silenceTimes struct{ first, every time.Duration }

// silenceWatch emits a notice while a model call receives nothing.
type silenceWatch struct {
	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
	since   time.Time // the call's start or its last stream event
	model   string
	every   time.Duration
	first   time.Duration
	emit    func(Event)
}

func watchSilence(model string, t silenceTimes, emit func(Event)) *silenceWatch {
	w := &silenceWatch{model: model, first: t.first, every: t.every, emit: emit, since: time.Now()}
	if w.first <= 0 {
		w.first = defaultSilenceFirst
	}
	if w.every <= 0 {
		w.every = defaultSilenceEvery
	}
	w.mu.Lock() // fire may run before the timer is stored
	w.timer = time.AfterFunc(w.first, w.fire)
	w.mu.Unlock()
	return w
}

// seen records a stream event: the server is talking. hold delays the next notice
// further, for a wait the run announced itself (a rate-limit slot).
func (w *silenceWatch) seen(hold time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.since = time.Now().Add(hold)
	w.timer.Reset(w.first + hold)
}

func (w *silenceWatch) fire() {
	w.mu.Lock()
	defer w.mu.Unlock() // held while emitting, so stop never returns before a notice is out
	if w.stopped {
		return
	}
	quiet := time.Since(w.since).Round(time.Second)
	w.emit(Event{Kind: EventNotice, Text: fmt.Sprintf(
		"waiting for %s: the server took the request but has sent nothing for %s (a long prompt takes a while; Esc or Ctrl+C stops the wait, and the provider's timeout ends it)",
		w.model, quiet)})
	w.timer.Reset(w.every)
}

// stop ends the watch; no notice is emitted once it returns.
func (w *silenceWatch) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	w.timer.Stop()
}
