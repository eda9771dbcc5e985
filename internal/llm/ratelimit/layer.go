package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

const (
	// FallbackAfter429s is how many consecutive 429s on a model send its calls to
	// the fallback model: the seed's FALLBACK_TRIGGER_429_COUNT.
	FallbackAfter429s = 2
	// FallbackDuration is how long the fallback serves before the primary is tried
	// again: the seed's FALLBACK_DURATION_SECONDS.
	FallbackDuration = 60 * time.Second
)

// Route is where a model's calls go: its wire name, the provider serving it and the
// account that provider's limits are counted on.
type Route struct {
	Model    string
	Provider llm.Provider
	// Account identifies who the server counts (base URL and key fingerprint);
	// processes with the same account share windows.
	Account string
	// Limited says Provider has its own rate-limit layer (a fallback on another
	// provider): calls go straight to it, which does its own booking.
	Limited bool
	// unbooked: no limit is known for the model, so the call takes no slot; a 429
	// still goes through the usual handling, and teaches the limit.
	unbooked bool
}

// Options configure a Layer.
type Options struct {
	// Account identifies the wrapped provider's account, see Route.Account.
	Account string
	// Store is the shared state; Table the limits and names.
	Store *Store
	Table *Table
	// Fallback returns where a model's calls go while it is rate limited; false
	// when it has no fallback.
	Fallback func(model string) (Route, bool)
	// Clock is the system clock when nil.
	Clock Clock
	// MaxWait, when positive, is the longest wait for a slot: a longer one ends
	// the call with an error naming rate_limits.max_wait.
	MaxWait time.Duration
}

// Layer is an llm.Provider that keeps calls under the limits. Put it inside the
// retry wrapper, so that every attempt waits for its slot.
type Layer struct {
	inner llm.Provider
	opts  Options
	seq   atomic.Int64
	mu    sync.Mutex
	// onFallback records the primaries whose last call this layer sent to their
	// fallback, to announce the primary's return once.
	onFallback map[string]bool
	// unbooked holds this layer's recent calls to models with no known limit
	// (see unbooked.go).
	unbooked map[string][]slot
}

// Wrap returns inner behind the rate-limit layer.
func Wrap(inner llm.Provider, opts Options) *Layer {
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	if opts.Table == nil {
		opts.Table = NewTable(TierExp, nil, nil)
	}
	return &Layer{inner: inner, opts: opts, onFallback: map[string]bool{}, unbooked: map[string][]slot{}}
}

// Stream waits for a slot, calls the model and books what the call used. While
// the model is in its fallback window, or its daily quota is exhausted, the call
// goes to the fallback model and an llm.EventModelSwitch says so.
func (l *Layer) Stream(ctx context.Context, req llm.Request, emit func(llm.StreamEvent)) (*llm.Response, error) {
	if emit == nil {
		emit = func(llm.StreamEvent) {}
	}
	primary := Route{Model: req.Model, Provider: l.inner, Account: l.opts.Account}
	now := l.opts.Clock.Now()
	var fallbackUntil int64
	var exhausted Exhausted
	var isExhausted, unlimited bool
	key := l.key(primary)
	if err := l.opts.Store.view(now, func(st *sharedState, th *throttleState) {
		var learned Limits
		m := st.Models[key]
		if m != nil {
			fallbackUntil, learned = m.FallbackUntil, m.Learned
		}
		exhausted, isExhausted = th.find(l.opts.Table.Canonical(primary.Model))
		// With no limit known and nothing held against the model there is nothing to
		// book: the call skips the state file's two writes (a server with no stated
		// limits, such as a local one, would otherwise queue every call on the lock).
		unlimited = l.opts.Table.Limits(canonOf(key), learned).IsZero() && !isExhausted &&
			(m == nil || (m.BlockedUntil <= now.UnixNano() && m.Consecutive429 == 0 && len(m.Slots) == 0))
	}); err != nil {
		return nil, err
	}
	if isExhausted || fallbackUntil > now.UnixNano() {
		if fb, ok := l.fallback(primary.Model); ok {
			l.announce(primary.Model, fb.Model, emit, l.reason(isExhausted, exhausted, fallbackUntil))
			return l.call(ctx, fb, req, emit, nil)
		}
		if isExhausted {
			return nil, quotaError(exhausted)
		}
	}
	l.mu.Lock()
	back := l.onFallback[primary.Model]
	delete(l.onFallback, primary.Model)
	l.mu.Unlock()
	if back {
		emit(llm.StreamEvent{Kind: llm.EventModelSwitch, Name: primary.Model,
			Text: fmt.Sprintf("rate limit: back on %s", primary.Model)})
	}
	if unlimited {
		primary.unbooked = true
	}
	return l.call(ctx, primary, req, emit, &primary)
}

func (l *Layer) reason(exhausted bool, e Exhausted, until int64) string {
	if exhausted {
		return fmt.Sprintf("its daily quota is exhausted until %s UTC", e.ResetAt().Format("2006-01-02 15:04"))
	}
	left := time.Duration(until - l.opts.Clock.Now().UnixNano()).Round(time.Second)
	return fmt.Sprintf("after %d consecutive 429s, for %s", FallbackAfter429s, left)
}

func (l *Layer) fallback(model string) (Route, bool) {
	if l.opts.Fallback == nil {
		return Route{}, false
	}
	fb, ok := l.opts.Fallback(model)
	if !ok || fb.Provider == nil || l.key(fb) == l.key(Route{Model: model, Account: l.opts.Account}) {
		return Route{}, false
	}
	return fb, true
}

// announce emits the switch to fb once per stretch of fallback.
func (l *Layer) announce(primary, fb string, emit func(llm.StreamEvent), why string) {
	l.mu.Lock()
	already := l.onFallback[primary]
	l.onFallback[primary] = true
	l.mu.Unlock()
	if !already {
		emit(llm.StreamEvent{Kind: llm.EventModelSwitch, Name: fb,
			Text: fmt.Sprintf("rate limit: %s continues on %s (%s)", primary, fb, why)})
	}
}

func (l *Layer) key(r Route) string { return r.Account + "|" + l.opts.Table.Canonical(r.Model) }

// call runs one attempt on r. primary is set when r is the requested model, so a
// daily quota or a second 429 may move the same call to the fallback.
func (l *Layer) call(ctx context.Context, r Route, req llm.Request, emit func(llm.StreamEvent), primary *Route) (*llm.Response, error) {
	req.Model = r.Model
	if r.Limited {
		return r.Provider.Stream(ctx, req, emit)
	}
	chars := requestChars(req)
	key := l.key(r)
	var id string
	start := l.opts.Clock.Now()
	if !r.unbooked {
		var err error
		if id, err = l.acquire(ctx, key, chars, emit); err != nil {
			return nil, err
		}
	}
	resp, err := r.Provider.Stream(ctx, req, emit)
	if err == nil {
		if r.unbooked {
			tokens := resp.Usage.InputTokens
			if tokens <= 0 {
				tokens = (&modelState{}).estimate(chars)
			}
			l.remember(key, start, tokens, strconv.Itoa(pid)+"-u"+strconv.FormatInt(l.seq.Add(1), 10))
		} else {
			l.settle(key, id, chars, resp.Usage.InputTokens)
		}
		if resp.Message.Model == "" {
			resp.Message.Model = r.Model
		}
		return resp, nil
	}
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) {
		return nil, err
	}
	switch {
	case apiErr.Status == http.StatusTooManyRequests:
		return l.on429(ctx, r, req, emit, primary, apiErr, id)
	case apiErr.RetryAfter > 0 && apiErr.Retryable():
		// 503 "Model is too busy" with Retry-After: every process holds back.
		l.block(key, RetryWait(apiErr.RetryAfter, Stated{}, 0), Limits{}, false)
	}
	return nil, err
}

func (l *Layer) on429(ctx context.Context, r Route, req llm.Request, emit func(llm.StreamEvent), primary *Route, apiErr *llm.APIError, id string) (*llm.Response, error) {
	msg := apiErr.Message
	if msg == "" {
		msg = apiErr.Body
	}
	st := ParseStated(msg)
	key := l.key(r)
	l.handOver(key)
	l.release(key, id)
	if st.Kind.Daily() {
		ex := Exhausted{Model: l.opts.Table.Canonical(r.Model), Reason: reasonDailyQuota, Limit: st.Kind,
			BodyExcerpt: excerpt(apiErr.Body), RecordedAt: l.opts.Clock.Now().UTC()}
		l.exhaust(key, ex, st.Learned())
		if primary != nil {
			if fb, ok := l.fallback(r.Model); ok {
				l.announce(r.Model, fb.Model, emit, l.reason(true, ex, 0))
				return l.call(ctx, fb, req, emit, nil)
			}
		}
		return nil, quotaError(ex)
	}
	lim := l.limits(key)
	wait := RetryWait(apiErr.RetryAfter, st, lim.RPM)
	count := l.block(key, wait, st.Learned(), true)
	if primary != nil && count >= FallbackAfter429s {
		if fb, ok := l.fallback(r.Model); ok {
			until := l.opts.Clock.Now().Add(FallbackDuration)
			l.openFallback(key, until)
			l.announce(r.Model, fb.Model, emit, l.reason(false, Exhausted{}, until.UnixNano()))
			return l.call(ctx, fb, req, emit, nil)
		}
	}
	if apiErr.RetryAfter > 0 {
		// The server's own value goes up unchanged: the retry policy gives up on a
		// wait it finds too long, and a face may show it. Only our block is clamped.
		return nil, apiErr
	}
	e := *apiErr
	e.RetryAfter = wait
	return nil, &e
}
