package retry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// script is a fake provider that fails with errs[i] on call i, then answers.
type script struct {
	errs  []error
	calls int
}

func (s *script) Stream(ctx context.Context, _ llm.Request, emit func(llm.StreamEvent)) (*llm.Response, error) {
	s.calls++
	emit(llm.StreamEvent{Kind: llm.EventTextDelta, Text: fmt.Sprintf("try %d", s.calls)})
	if i := s.calls - 1; i < len(s.errs) && s.errs[i] != nil {
		return nil, s.errs[i]
	}
	return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "ok"}}, nil
}

// fakeTime records the waits instead of sleeping, and moves a fake clock.
type fakeTime struct {
	now   time.Time
	waits []time.Duration
}

func (f *fakeTime) sleep(ctx context.Context, d time.Duration) error {
	f.waits = append(f.waits, d)
	f.now = f.now.Add(d)
	return ctx.Err()
}

func (f *fakeTime) policy(p Policy) Policy {
	p.Sleep = f.sleep
	p.Now = func() time.Time { return f.now }
	p.Rand = func() float64 { return 0.5 }
	return p
}

func apiErr(status int, retryAfter time.Duration) error {
	return &llm.APIError{Status: status, URL: "http://model.test/v1/chat/completions", RetryAfter: retryAfter}
}

var errNet = fmt.Errorf("http://model.test: %w: connection reset", llm.ErrUnreachable)

func TestWrap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		errs      []error
		policy    Policy
		wantCalls int
		wantWaits []time.Duration
		// wantErr is empty for success, else a substring of the error.
		wantErr      string
		wantAttempts int // for a *Error; 0 means the error is not wrapped
	}{
		{
			name:      "503 then success, jittered exponential backoff",
			errs:      []error{apiErr(503, 0), apiErr(502, 0), errNet},
			wantCalls: 4,
			// equal jitter with Rand 0.5: 0.75 of 0.5 s, 1 s, 2 s.
			wantWaits: []time.Duration{375 * time.Millisecond, 750 * time.Millisecond, 1500 * time.Millisecond},
		},
		{
			name:      "Retry-After is honoured exactly",
			errs:      []error{apiErr(429, 7*time.Second)},
			wantCalls: 2,
			wantWaits: []time.Duration{7 * time.Second},
		},
		{
			name:      "400 is not retried and comes back unwrapped",
			errs:      []error{apiErr(400, 0)},
			wantCalls: 1,
			wantErr:   "HTTP 400",
		},
		{
			name:         "attempt limit",
			errs:         []error{apiErr(500, 0), apiErr(500, 0), apiErr(500, 0)},
			policy:       Policy{MaxAttempts: 2},
			wantCalls:    2,
			wantWaits:    []time.Duration{375 * time.Millisecond},
			wantErr:      "gave up after 2 attempts (attempt limit reached)",
			wantAttempts: 2,
		},
		{
			name:      "Retry-After beyond MaxDelay but within the default MaxWait is waited out",
			errs:      []error{apiErr(429, 45*time.Second)},
			wantCalls: 2,
			wantWaits: []time.Duration{45 * time.Second},
		},
		{
			name:         "Retry-After beyond the default MaxWait is not waited out",
			errs:         []error{apiErr(429, time.Hour)},
			wantCalls:    1,
			wantErr:      "server asked to wait 1h0m0s, more than the 10m0s limit",
			wantAttempts: 1,
		},
		{
			name:         "Retry-After beyond MaxWait names the setting to raise",
			errs:         []error{apiErr(429, 2*time.Second)},
			policy:       Policy{MaxWait: time.Second, MaxWaitSetting: "rate_limits.max_wait"},
			wantCalls:    1,
			wantErr:      "server asked to wait 2s, more than the 1s limit; raise rate_limits.max_wait to wait it out",
			wantAttempts: 1,
		},
		{
			name:         "MaxElapsed budget",
			errs:         []error{apiErr(429, 20*time.Second), apiErr(429, 20*time.Second)},
			policy:       Policy{MaxElapsed: 30 * time.Second},
			wantCalls:    2,
			wantWaits:    []time.Duration{20 * time.Second},
			wantErr:      "pass the 30s budget",
			wantAttempts: 2,
		},
		{
			name:         "non-retryable after retries says how many attempts",
			errs:         []error{apiErr(503, 0), apiErr(401, 0)},
			wantCalls:    2,
			wantWaits:    []time.Duration{375 * time.Millisecond},
			wantErr:      "gave up after 2 attempts (not retryable)",
			wantAttempts: 2,
		},
		{
			name:      "backoff is capped by MaxDelay",
			errs:      []error{errNet, errNet, errNet},
			policy:    Policy{BaseDelay: 4 * time.Second, MaxDelay: 5 * time.Second},
			wantCalls: 4,
			wantWaits: []time.Duration{3 * time.Second, 3750 * time.Millisecond, 3750 * time.Millisecond},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ft := &fakeTime{now: time.Unix(1_700_000_000, 0)}
			inner := &script{errs: tc.errs}
			var events []llm.StreamEvent
			resp, err := Wrap(inner, ft.policy(tc.policy)).Stream(context.Background(), llm.Request{}, func(e llm.StreamEvent) {
				events = append(events, e)
			})
			if inner.calls != tc.wantCalls {
				t.Errorf("calls = %d, want %d", inner.calls, tc.wantCalls)
			}
			if !reflect.DeepEqual(ft.waits, tc.wantWaits) {
				t.Errorf("waits = %v, want %v", ft.waits, tc.wantWaits)
			}
			if tc.wantErr == "" {
				if err != nil || resp == nil || resp.Message.Content != "ok" {
					t.Fatalf("Stream = %v, %v; want the answer", resp, err)
				}
			} else {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				if last := tc.errs[inner.calls-1]; !errors.Is(err, last) {
					t.Errorf("err %v does not wrap the last error %v", err, last)
				}
				var re *Error
				if got := errors.As(err, &re); got != (tc.wantAttempts > 0) || (got && re.Attempts != tc.wantAttempts) {
					t.Errorf("err = %#v, want *Error with %d attempts: %v", err, tc.wantAttempts, got)
				}
			}
			// Each retry is announced after the failed attempt's events and
			// before the next attempt's.
			var want []llm.StreamEvent
			for i := range inner.calls {
				want = append(want, llm.StreamEvent{Kind: llm.EventTextDelta, Text: fmt.Sprintf("try %d", i+1)})
				if i < len(ft.waits) {
					want = append(want, llm.StreamEvent{Kind: llm.EventRetry, Err: tc.errs[i]})
					var ae *llm.APIError
					if errors.As(tc.errs[i], &ae) && ae.RetryAfter > 0 {
						want = append(want, llm.StreamEvent{Kind: llm.EventWait, Wait: ae.RetryAfter, Err: tc.errs[i],
							Text: fmt.Sprintf("the next try of the model call (the server answered: %v)", tc.errs[i])})
					}
				}
			}
			if !reflect.DeepEqual(events, want) {
				t.Errorf("events = %v, want %v", events, want)
			}
		})
	}
}

// TestWrapCancel checks that cancellation ends the call at once, whether it comes
// during an attempt or during the wait, with the context's error.
func TestWrapCancel(t *testing.T) {
	t.Parallel()
	t.Run("during the wait", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		inner := &script{errs: []error{apiErr(503, 0), apiErr(503, 0)}}
		p := Policy{Sleep: func(ctx context.Context, _ time.Duration) error { cancel(); return ctx.Err() }}
		_, err := Wrap(inner, p).Stream(ctx, llm.Request{}, func(llm.StreamEvent) {})
		if !errors.Is(err, context.Canceled) || inner.calls != 1 {
			t.Fatalf("err = %v after %d calls; want context.Canceled after 1", err, inner.calls)
		}
	})
	t.Run("during an attempt", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		calls := 0
		inner := llm.ProviderFunc(func(ctx context.Context, _ llm.Request, _ func(llm.StreamEvent)) (*llm.Response, error) {
			calls++
			cancel()
			// A provider may report the broken connection rather than the cancel.
			return nil, errNet
		})
		slept := false
		p := Policy{Sleep: func(context.Context, time.Duration) error { slept = true; return nil }}
		_, err := Wrap(inner, p).Stream(ctx, llm.Request{}, nil)
		if !errors.Is(err, context.Canceled) || calls != 1 || slept {
			t.Fatalf("err = %v, calls %d, slept %v; want context.Canceled, 1 call, no sleep", err, calls, slept)
		}
	})
	t.Run("real timer honours the context", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		time.AfterFunc(20*time.Millisecond, cancel)
		inner := &script{errs: []error{apiErr(429, 25*time.Second)}}
		start := time.Now()
		_, err := Wrap(inner, Policy{}).Stream(ctx, llm.Request{}, func(llm.StreamEvent) {})
		if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
			t.Fatalf("err = %v after %s; want Canceled promptly", err, time.Since(start))
		}
	})
	t.Run("a wait past the deadline is answered at once", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		inner := &script{errs: []error{apiErr(429, 25*time.Second)}}
		slept := false
		_, err := Wrap(inner, Policy{Sleep: func(context.Context, time.Duration) error { slept = true; return nil }}).Stream(ctx, llm.Request{}, nil)
		var apiErr *llm.APIError
		if slept || !errors.As(err, &apiErr) || apiErr.RetryAfter != 25*time.Second || !strings.Contains(err.Error(), "deadline") {
			t.Fatalf("err = %v, slept %v; want the 429 with its wait, at once", err, slept)
		}
	})
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	p := Policy{}.withDefaults()
	if p.MaxAttempts != 4 || p.BaseDelay != 500*time.Millisecond || p.MaxDelay != 30*time.Second || p.MaxWait != 10*time.Minute {
		t.Fatalf("defaults = %+v", p)
	}
	if (&llm.APIError{Status: http.StatusTooManyRequests}).Retryable() != true {
		t.Fatal("429 must be retryable for this package to matter")
	}
}
