package tui

import (
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// A server that takes the request and sends nothing: the status line says what the
// turn waits for, and stops saying it once the answer streams.
func TestStatusLineSaysWhatASilentTurnWaitsFor(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 120, 30, nil, fakemodel.Turn{Text: []string{"late answer"}, FirstByteDelay: 1500 * time.Millisecond})
	l.ready()
	l.m.silence.after = 200 * time.Millisecond
	l.typeLine("hi")
	l.waitScreen("nothing received for")
	l.idle()
	if !l.shows("late answer") || l.shows("nothing received") {
		t.Fatalf("after the answer:\n%s", l.screen())
	}
}
