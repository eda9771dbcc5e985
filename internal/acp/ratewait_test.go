package acp

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// A server's Retry-After reaches the editor as a thought saying how long the agent
// waits and why, then the answer follows.
func TestARateLimitWaitIsAThought(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{
		fakemodel.AlbertError(429, "Rate limit exceeded.").WithHeader("Retry-After", "1"),
		{Text: []string{"done"}},
	}}, nil)
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "go"))
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn || c.agentText() != "done" {
		t.Fatalf("prompt: %+v, %v, text %q", resp, err, c.agentText())
	}
	var thoughts strings.Builder
	for _, u := range c.snapshot() {
		if th := u.Update.AgentThoughtChunk; th != nil && th.Content.Text != nil {
			thoughts.WriteString(th.Content.Text.Text)
		}
	}
	if !strings.Contains(thoughts.String(), "waiting 1s: the next try of the model call (the server answered: ") {
		t.Fatalf("thoughts %q, want the wait", thoughts.String())
	}
}

// Usage updates carry the shipped model's rate-limit gauge in _meta, so an editor
// can show what the terminal UI's footer shows.
func TestUsageUpdatesCarryTheRateGauge(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"done"}}}}, nil)
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "go")); err != nil {
		t.Fatal(err)
	}
	var last any
	for _, u := range c.snapshot() {
		if uu := u.Update.UsageUpdate; uu != nil && uu.Meta != nil {
			last = uu.Meta["albert-code/rateLimits"]
		}
	}
	b, _ := json.Marshal(last)
	if !strings.Contains(string(b), `{"level":"ok","limit":50,"name":"rpm","used":1}`) ||
		!strings.Contains(string(b), `{"level":"ok","limit":1000,"name":"rpd","used":1}`) {
		t.Fatalf("rate gauge in _meta = %s, want rpm 1/50 and rpd 1/1000", b)
	}
}
