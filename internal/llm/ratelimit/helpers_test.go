package ratelimit_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/openaicompat"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// fakeClock moves only when a sleeper waits: Sleep advances it, so every wait the
// layer decides is recorded and costs no real time.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

func newClock(start time.Time) *fakeClock { return &fakeClock{now: start} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.slept = append(c.slept, d)
	return nil
}

func (c *fakeClock) Advance(d time.Duration) { _ = c.Sleep(context.Background(), d) }

// Slept returns the waits so far and forgets them.
func (c *fakeClock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.slept
	c.slept = nil
	return s
}

func (c *fakeClock) TotalSlept() time.Duration {
	var sum time.Duration
	for _, d := range c.Slept() {
		sum += d
	}
	return sum
}

// noon is a fixed start far from midnight UTC, so daily windows do not roll by
// accident.
var noon = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

const (
	modelA = "test/model-a"
	modelB = "test/model-b"
	apiKey = "sk-test"
)

type rig struct {
	t      *testing.T
	clock  *fakeClock
	server *fakealbert.Server
	dir    string
}

// newRig starts a fake Albert sharing the test's clock.
func newRig(t *testing.T, limA, limB fakealbert.Limits, opts ...func(*fakealbert.Options)) *rig {
	t.Helper()
	clock := newClock(noon)
	o := fakealbert.Options{APIKey: apiKey, Clock: clock, Models: []fakealbert.Model{
		{ID: modelA, Aliases: []string{"alias-a"}, Limits: limA, RouterID: 1},
		{ID: modelB, Limits: limB, RouterID: 2},
	}}
	for _, f := range opts {
		f(&o)
	}
	srv, err := fakealbert.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return &rig{t: t, clock: clock, server: srv, dir: t.TempDir()}
}

// layer builds one "process": its own Store on the shared directory, its own
// provider. overrides are configured limits by any model name.
func (r *rig) layer(overrides map[string]ratelimit.Limits, withFallback bool) *ratelimit.Layer {
	return r.layerWith(ratelimit.NewStore(r.dir), overrides, withFallback)
}

// provider is a client of the fake server, with no layer.
func (r *rig) provider() llm.Provider {
	return openaicompat.New(openaicompat.Options{BaseURL: r.server.URL(), APIKey: apiKey, Timeout: 10 * time.Second})
}

func (r *rig) layerWith(store *ratelimit.Store, overrides map[string]ratelimit.Limits, withFallback bool) *ratelimit.Layer {
	inner := r.provider()
	table := ratelimit.NewTable(ratelimit.TierExp, []ratelimit.ModelNames{{Wire: modelA, Aliases: []string{"alias-a"}}, {Wire: modelB}}, overrides)
	opts := ratelimit.Options{Account: r.server.URL(), Store: store, Table: table, Clock: r.clock}
	if withFallback {
		opts.Fallback = func(model string) (ratelimit.Route, bool) {
			if table.Canonical(model) != modelA {
				return ratelimit.Route{}, false
			}
			return ratelimit.Route{Model: modelB, Provider: inner, Account: r.server.URL()}, true
		}
	}
	return ratelimit.Wrap(inner, opts)
}

// call sends one short prompt and returns the answer and the events seen.
func call(ctx context.Context, p llm.Provider, model string) (*llm.Response, []llm.StreamEvent, error) {
	var evs []llm.StreamEvent
	resp, err := p.Stream(ctx, llm.Request{Model: model, Messages: []llm.Message{{Role: llm.RoleUser, Content: "hello there, model"}}},
		func(ev llm.StreamEvent) { evs = append(evs, ev) })
	return resp, evs, err
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
