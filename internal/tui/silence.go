package tui

import (
	"time"

	"github.com/etalab-ia/albert-code/internal/agent"
)

// defaultSilence is how long a model call may send nothing before the status line
// says what the turn waits for: the agent's own notice uses the same 5 s.
const defaultSilence = 5 * time.Second

// silenceState follows the events of a turn: when the server last sent something,
// and which tools run (a silent tool is not a silent server).
type silenceState struct {
	heardAt time.Time
	running map[string]bool
	after   time.Duration // zero: defaultSilence
}

func (s *silenceState) heard(ev agent.Event) {
	switch ev.Kind {
	case agent.EventNotice, agent.EventError:
		return // ours, not the server's
	case agent.EventToolCallStart:
		if ev.Tool == nil {
			break
		}
		if s.running == nil {
			s.running = map[string]bool{}
		}
		s.running[ev.Tool.ID] = true
	case agent.EventToolCallResult:
		if ev.Tool != nil {
			delete(s.running, ev.Tool.ID)
		}
	case agent.EventTurnEnd:
		clear(s.running)
	}
	s.heardAt = time.Now()
}

// silentFor is how long the running turn's model call has received nothing, or 0
// while that is under the threshold, a tool or a shell command runs, or a
// rate-limit wait is counted down.
func (m *Model) silentFor() time.Duration {
	if !m.busy || m.shell || len(m.silence.running) > 0 || time.Now().Before(m.waitUntil) {
		return 0
	}
	since := m.busySince
	if m.silence.heardAt.After(since) {
		since = m.silence.heardAt
	}
	after := m.silence.after
	if after <= 0 {
		after = defaultSilence
	}
	if d := time.Since(since); d >= after {
		return d
	}
	return 0
}
