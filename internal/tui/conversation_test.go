package tui

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// The notices a face opens a conversation with show after the session's own
// warnings; what it opened beside the session is released when the UI moves to
// another conversation (/reload) and when the last one closes, not before.
func TestConversationNoticesShowAndReleaseRunsOnClose(t *testing.T) {
	t.Parallel()
	var opens, released atomic.Int32
	var started atomic.Pointer[loop] // Open runs before newLoop returns
	l := newLoop(t, 100, 30, func(o *Options) {
		o.Open = func(r OpenRequest) (*Conversation, error) {
			deadline := time.Now().Add(5 * time.Second)
			for started.Load() == nil && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			c, err := started.Load().open(r)
			if err != nil {
				return nil, err
			}
			c.Notices = []string{fmt.Sprintf("quota notice of opening %d", opens.Add(1))}
			c.Release = func() { released.Add(1) }
			return c, nil
		}
	}, fakemodel.Turn{Text: []string{"hello"}})
	started.Store(l)
	l.ready()
	if !l.shows("quota notice of opening 1") {
		t.Fatalf("the face's notice is not shown:\n%s", l.screen())
	}
	if n := released.Load(); n != 0 {
		t.Fatalf("released %d times while the conversation is open", n)
	}
	l.typeLine("/reload")
	l.waitScreen("quota notice of opening 2")
	l.until("the first conversation released", func() bool { return released.Load() == 1 })
	l.m.Conversation().Close()
	if n := released.Load(); n != 2 {
		t.Fatalf("released %d times after the last conversation closed, want 2", n)
	}
}
