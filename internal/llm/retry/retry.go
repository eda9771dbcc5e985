// Package retry wraps an llm.Provider so that transient failures (rate limits,
// server errors, broken connections) are tried again with backoff, while the face
// is told to forget what a failed attempt streamed.
package retry

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// Defaults, used for zero Policy fields.
const (
	// DefaultMaxAttempts is one call and three retries: the seed retries 3 times in
	// total, we allow one more because our retries also cover broken connections.
	DefaultMaxAttempts = 4
	// DefaultBaseDelay is the seed's first backoff (0.5·2^attempt s).
	DefaultBaseDelay = 500 * time.Millisecond
	// DefaultMaxDelay caps one backoff wait (when the server names none). By
	// judgement: 30 s is long enough for a restarting server, short enough to watch.
	DefaultMaxDelay = 30 * time.Second
	// DefaultMaxWait caps a wait the server asks for (Retry-After): the original
	// waited out any Retry-After; 10 minutes covers a per-minute window many times
	// over while still ending a run whose quota will not come back soon (judgement).
	DefaultMaxWait = 10 * time.Minute
)

// Policy says how often and how long to retry. The zero value uses the defaults.
type Policy struct {
	// MaxAttempts counts the first call; 1 disables retries.
	MaxAttempts int
	// BaseDelay is the backoff before the first retry; it doubles each time.
	BaseDelay time.Duration
	// MaxDelay caps one backoff wait.
	MaxDelay time.Duration
	// MaxWait caps a wait the server asked for. A Retry-After longer than MaxWait
	// is not waited out: retrying earlier would only earn another 429, so the
	// error is returned at once for the caller (fallback, person) to handle.
	MaxWait time.Duration
	// MaxWaitSetting names the setting behind MaxWait in the give-up message, so
	// the person knows what to raise; empty means no hint.
	MaxWaitSetting string
	// MaxElapsed, when positive, is the whole time budget: no retry starts whose
	// wait would end after it.
	MaxElapsed time.Duration
	// Sleep waits d or until ctx ends; nil means a timer. Tests inject a fake.
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand returns a number in [0, 1) for jitter; nil means math/rand/v2.
	Rand func() float64
	// Now is the clock for MaxElapsed; nil means time.Now.
	Now func() time.Time
}

func (p Policy) withDefaults() Policy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = DefaultMaxAttempts
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultBaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultMaxDelay
	}
	if p.MaxWait <= 0 {
		p.MaxWait = DefaultMaxWait
	}
	if p.Sleep == nil {
		p.Sleep = sleep
	}
	if p.Rand == nil {
		p.Rand = rand.Float64
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	return p
}

// Error is the failure of a call that was attempted more than once.
type Error struct {
	// Attempts is how many calls were made.
	Attempts int
	// Reason says why retrying stopped.
	Reason string
	// Err is the last attempt's error.
	Err error
}

func (e *Error) Error() string {
	return fmt.Sprintf("gave up after %d attempts (%s): %v", e.Attempts, e.Reason, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Wrap returns a Provider that calls inner again after retryable errors
// (llm.IsRetryable). Before each retry it emits an llm.EventRetry carrying the
// error. Cancellation stops it at once and returns the context's error.
func Wrap(inner llm.Provider, p Policy) llm.Provider {
	p = p.withDefaults()
	return llm.ProviderFunc(func(ctx context.Context, req llm.Request, emit func(llm.StreamEvent)) (*llm.Response, error) {
		return p.run(ctx, inner, req, emit)
	})
}

func (p Policy) run(ctx context.Context, inner llm.Provider, req llm.Request, emit func(llm.StreamEvent)) (*llm.Response, error) {
	if emit == nil {
		emit = func(llm.StreamEvent) {}
	}
	start := p.Now()
	for attempt := 1; ; attempt++ {
		resp, err := inner.Stream(ctx, req, emit)
		if err == nil {
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("model call cancelled: %w", ctx.Err())
		}
		if !llm.IsRetryable(err) {
			return nil, giveUp(attempt, "not retryable", err)
		}
		if attempt >= p.MaxAttempts {
			return nil, giveUp(attempt, "attempt limit reached", err)
		}
		wait, serverAsked := p.delay(attempt, err)
		if serverAsked && wait > p.MaxWait {
			return nil, giveUp(attempt, p.tooLong(wait), err)
		}
		if dl, ok := ctx.Deadline(); ok && wait > time.Until(dl) {
			// The caller would be gone before the next try: answer now, with the
			// wait, so a server (serve) passes a 429 on instead of timing out.
			return nil, giveUp(attempt, fmt.Sprintf("the next try, in %s, would come after this call's deadline", wait.Round(time.Second)), err)
		}
		if p.MaxElapsed > 0 && p.Now().Add(wait).Sub(start) > p.MaxElapsed {
			return nil, giveUp(attempt, fmt.Sprintf("next try would pass the %s budget", p.MaxElapsed), err)
		}
		emit(llm.StreamEvent{Kind: llm.EventRetry, Err: err})
		if serverAsked {
			emit(llm.StreamEvent{Kind: llm.EventWait, Wait: wait, Err: err,
				Text: fmt.Sprintf("the next try of the model call (the server answered: %v)", err)})
		}
		if err := p.Sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("model call cancelled while waiting to retry: %w", err)
		}
	}
}

func (p Policy) tooLong(wait time.Duration) string {
	msg := fmt.Sprintf("server asked to wait %s, more than the %s limit", wait, p.MaxWait)
	if p.MaxWaitSetting != "" {
		msg += fmt.Sprintf("; raise %s to wait it out", p.MaxWaitSetting)
	}
	return msg
}

// giveUp returns err alone after a single attempt (nothing to report), and an
// *Error saying how many attempts were made otherwise.
func giveUp(attempts int, reason string, err error) error {
	if attempts == 1 && reason == "not retryable" {
		return err
	}
	return &Error{Attempts: attempts, Reason: reason, Err: err}
}

// delay is the wait before retry number attempt: the server's Retry-After when it
// gave one, else exponential backoff with "equal jitter" (half fixed, half random),
// which spreads clients apart while keeping a floor under each wait.
func (p Policy) delay(attempt int, err error) (d time.Duration, serverAsked bool) {
	var apiErr *llm.APIError
	if errors.As(err, &apiErr) && apiErr.RetryAfter > 0 {
		return apiErr.RetryAfter, true
	}
	d = p.BaseDelay
	for i := 1; i < attempt && d < p.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, p.MaxDelay)
	half := d / 2
	return half + time.Duration(p.Rand()*float64(d-half)), false
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
