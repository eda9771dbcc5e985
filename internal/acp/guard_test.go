package acp

import (
	"io"
	"testing"
)

// A cancel is forwarded while its session's prompt runs, and dropped once the answer
// is written: handled late by the SDK, it would cancel the client's next prompt.
func TestGuardForwardsACancelOnlyDuringAPrompt(t *testing.T) {
	g := newGuard(io.Discard)
	cancel := []byte(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
	if g.check(cancel) != nil {
		t.Fatal("a cancel with no prompt running was forwarded")
	}
	if g.check([]byte(`{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)) == nil {
		t.Fatal("the prompt was not forwarded")
	}
	if g.check(cancel) == nil {
		t.Fatal("a cancel during the prompt was dropped")
	}
	if g.check([]byte(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"other"}}`)) != nil {
		t.Fatal("a cancel for another session was forwarded")
	}
	if _, err := g.Write([]byte(`{"jsonrpc":"2.0","id":7,"result":{"stopReason":"cancelled"}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if g.check(cancel) != nil {
		t.Fatal("a cancel after the prompt's answer was forwarded")
	}
}
