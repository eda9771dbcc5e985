package ratelimit_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// BenchmarkAcquire measures what the layer adds to one call: acquiring a slot and
// booking the reported usage, each a locked read and rewrite of the shared state
// file, around a provider that answers at once. The limits never make it wait (no
// rpm, so no spacing), and the clock moves a second at each reading so that the
// window holds a realistic few dozen calls rather than every call of the run.
func BenchmarkAcquire(b *testing.B) {
	for _, bc := range []struct {
		name   string
		models int // other models with full windows in the state file
	}{{"one-model", 0}, {"ten-busy-models", 9}} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			resp := &llm.Response{Usage: llm.Usage{InputTokens: 2000, OutputTokens: 50}}
			inner := llm.ProviderFunc(func(context.Context, llm.Request, func(llm.StreamEvent)) (*llm.Response, error) {
				r := *resp
				return &r, nil
			})
			limits := map[string]ratelimit.Limits{}
			names := []string{"bench/model"}
			for i := range bc.models {
				names = append(names, "bench/other-"+string(rune('a'+i)))
			}
			for _, n := range names {
				limits[n] = ratelimit.Limits{TPM: 1 << 40}
			}
			layer := ratelimit.Wrap(inner, ratelimit.Options{Account: "bench", Clock: &tickingClock{now: noon}, Store: ratelimit.NewStore(dir), Table: ratelimit.NewTable(ratelimit.TierExp, nil, limits)})
			ctx := context.Background()
			req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "a prompt of a typical length for one turn of an agent"}}}
			// Fill the other models' windows: a state file as large as a busy user's.
			for _, n := range names[1:] {
				req.Model = n
				for range 30 {
					if _, err := layer.Stream(ctx, req, nil); err != nil {
						b.Fatal(err)
					}
				}
			}
			req.Model = names[0]
			b.ResetTimer()
			for b.Loop() {
				if _, err := layer.Stream(ctx, req, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// tickingClock advances one second each time it is read.
type tickingClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *tickingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Second)
	return c.now
}

func (c *tickingClock) Sleep(context.Context, time.Duration) error { return nil }
