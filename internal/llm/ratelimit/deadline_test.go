package ratelimit

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// A wait longer than the caller's deadline is a 429 at once, with the wait; a shorter
// one, no deadline, or an injected clock lets the layer wait.
func TestAWaitPastTheDeadlineIsARateLimitAtOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := pastDeadline(ctx, SystemClock{}, time.Minute, "m")
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 429 || apiErr.RetryAfter != time.Minute {
		t.Fatalf("a minute's wait before a 5 s deadline: %v", err)
	}
	if err := pastDeadline(ctx, SystemClock{}, time.Second, "m"); err != nil {
		t.Errorf("a second's wait before a 5 s deadline: %v", err)
	}
	if err := pastDeadline(context.Background(), SystemClock{}, time.Hour, "m"); err != nil {
		t.Errorf("no deadline: %v", err)
	}
	if err := pastDeadline(ctx, nil, time.Hour, "m"); err != nil {
		t.Errorf("an injected clock: %v", err)
	}
}
