package tui

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/chat"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// After "Not now", the footer marks the folder untrusted; the refusal says how to
// trust it; /trust trusts it and reopens the session, and the marker goes.
func TestTrustAfterNotNow(t *testing.T) {
	t.Parallel()
	var trusted atomic.Bool
	var started atomic.Pointer[loop] // Open runs before newLoop returns
	l := newLoop(t, 120, 30, func(o *Options) {
		o.Open = func(r OpenRequest) (*Conversation, error) {
			deadline := time.Now().Add(5 * time.Second)
			for started.Load() == nil && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			l := started.Load()
			e, err := agentenv.Load(agentenv.Options{WorkDir: l.work, Trust: trusted.Load(),
				LookupEnv: func(k string) (string, bool) { v, ok := l.vars[k]; return v, ok }})
			if err != nil {
				return nil, err
			}
			c, err := chat.Open(e, chat.Options{Resume: r.Resume, Approver: r.Approver, Asker: r.Asker})
			if err != nil {
				e.Close()
				return nil, err
			}
			l.convs, l.envs = append(l.convs, c), append(l.envs, e)
			return &Conversation{Session: c, Untrusted: !e.Trusted}, nil
		}
		o.TrustFolder = func() error { trusted.Store(true); return nil }
	},
		fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{Name: "write", Arguments: `{"path":"a.txt","content":"x"}`}}},
		fakemodel.Turn{Text: []string{"I could not write it."}},
	)
	started.Store(l)
	l.ready()
	if !l.shows("untrusted folder (/trust)") {
		t.Fatalf("no untrusted marker in the footer:\n%s", l.screen())
	}
	l.typeLine("write a.txt")
	l.idle()
	if !l.shows("/trust trusts it and reopens the session") {
		t.Fatalf("the refusal does not say how to trust the folder:\n%s", l.screen())
	}
	l.typeLine("/trust")
	l.waitScreen("this folder is now trusted")
	l.until("the marker goes", func() bool { return !l.shows("untrusted folder") })
}
