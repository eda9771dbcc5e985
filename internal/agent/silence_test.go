package agent

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// turnAfter answers text after the server sent the given events, each after pause.
func turnAfter(pause time.Duration, events []llm.StreamEvent, text string) func(context.Context, func(llm.StreamEvent)) (*llm.Response, error) {
	return func(_ context.Context, emit func(llm.StreamEvent)) (*llm.Response, error) {
		for _, ev := range events {
			time.Sleep(pause)
			emit(ev)
		}
		time.Sleep(pause)
		return say(text, llm.Usage{})(context.Background(), emit)
	}
}

type noticeLog struct {
	mu      sync.Mutex
	notices []string
}

func (n *noticeLog) emit(ev Event) {
	if ev.Kind == EventNotice {
		n.mu.Lock()
		n.notices = append(n.notices, ev.Text)
		n.mu.Unlock()
	}
}

func (n *noticeLog) waiting() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for _, s := range n.notices {
		if strings.HasPrefix(s, "waiting for silent-model: the server took the request but has sent nothing for") {
			c++
		}
	}
	return c
}

func TestSilentServerIsAnnounced(t *testing.T) {
	t.Parallel()
	delta := llm.StreamEvent{Kind: llm.EventTextDelta, Text: "."}
	for _, tc := range []struct {
		name    string
		turn    func(context.Context, func(llm.StreamEvent)) (*llm.Response, error)
		atLeast int
		atMost  int
	}{
		// Silent for 400 ms: a notice at 40 ms, then every 100 ms.
		{"silent", turnAfter(400*time.Millisecond, nil, "late"), 3, 5},
		// A byte every 20 ms: never silent long enough.
		{"talking", turnAfter(20*time.Millisecond, []llm.StreamEvent{delta, delta, delta, delta, delta, delta, delta, delta, delta, delta}, "done"), 0, 0},
		// A rate-limit wait the layer announced itself holds the notices back.
		{"announced wait", turnAfter(10*time.Millisecond, []llm.StreamEvent{{Kind: llm.EventWait, Wait: time.Second, Text: "rpm slot"}}, "done"), 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){tc.turn}}
			a := newAgent(t, p, Options{Model: Model{Name: "silent-model"}})
			a.silence = silenceTimes{first: 40 * time.Millisecond, every: 100 * time.Millisecond}
			var log noticeLog
			if res := a.Run(context.Background(), "go", log.emit); res.Stop != StopEndTurn {
				t.Fatalf("result %+v", res)
			}
			got := log.waiting()
			time.Sleep(150 * time.Millisecond)
			if after := log.waiting(); after != got {
				t.Fatalf("%d notices came after the run ended", after-got)
			}
			if got < tc.atLeast || got > tc.atMost {
				t.Fatalf("%d waiting notices, want %d to %d: %q", got, tc.atLeast, tc.atMost, log.notices)
			}
		})
	}
}
