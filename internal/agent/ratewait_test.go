package agent

import (
	"context"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// A provider's wait for a rate limit reaches every face as a rate_limit_wait event
// with its length, and the result names the model that answered (the fallback's
// when the rate limiter moved the call).
func TestRateLimitWaitIsAnEventAndTheResultNamesTheAnsweringModel(t *testing.T) {
	t.Parallel()
	p := &scripted{turns: []func(context.Context, func(llm.StreamEvent)) (*llm.Response, error){
		func(_ context.Context, emit func(llm.StreamEvent)) (*llm.Response, error) {
			emit(llm.StreamEvent{Kind: llm.EventWait, Wait: 45 * time.Second, Text: "the server asked to wait 45s"})
			emit(llm.StreamEvent{Kind: llm.EventModelSwitch, Name: "fallback/wire", Text: "rate limit: continues on fallback/wire"})
			return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "done", Model: "fallback/wire"}}, nil
		},
	}}
	a := newAgent(t, p, Options{Model: Model{Name: "primary", WireName: "primary/wire"}})
	var events []Event
	res := a.Run(context.Background(), "go", collect(&events))
	if res.Err != nil || res.Model != "fallback/wire" {
		t.Fatalf("result = %+v, want the fallback's wire name as Model", res)
	}
	var waits []Event
	for _, ev := range events {
		if ev.Kind == EventRateLimitWait {
			waits = append(waits, ev)
		}
	}
	if len(waits) != 1 || waits[0].WaitSeconds != 45 || waits[0].Text != "the server asked to wait 45s" {
		t.Fatalf("rate_limit_wait events = %+v, want one of 45 s saying why", waits)
	}
}
