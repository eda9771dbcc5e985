package agentenv

import "sync"

// onceWarnings hands its warnings to the first run that asks, so a long session
// (or serve's many runs) reports an ignored profile key once, not on every turn.
type onceWarnings struct {
	mu    sync.Mutex
	lines []string
}

func (o *onceWarnings) take() []string {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	w := o.lines
	o.lines = nil
	return w
}
