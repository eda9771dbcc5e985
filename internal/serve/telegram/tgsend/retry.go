package tgsend

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/go-telegram/bot"
)

// Retry bounds. Judgement: three 5xx retries over 1+2+4 s ride out a proxy
// restart without holding a cron job for long; eight 429 waits cover a burst
// of long answers at Telegram's ~1 message/s per chat.
const (
	DefaultServerRetries = 3
	maxFloodWaits        = 8
	firstBackoff         = time.Second
	// maxRetryAfter caps a retry_after we honour; Telegram asks for seconds
	// to minutes, and a longer ask is better surfaced than slept through.
	maxRetryAfter = 10 * time.Minute
)

// serverError matches the library's error for a JSON envelope with a 5xx
// code; a proxy's HTML page instead fails the library's decoding.
var serverError = regexp.MustCompile(`error response from telegram for method \w+, 5\d\d`)

// kind is what to do about a failed call.
type kind int

const (
	permanent   kind = iota
	flood            // 429: wait retry_after
	transient        // 5xx or the connection: back off and retry
	badEntities      // 400 can't parse entities: send the plain text
	tooLong          // 400 message is too long
)

func classify(err error) (kind, time.Duration) {
	if tm, ok := errors.AsType[*bot.TooManyRequestsError](err); ok {
		return flood, time.Duration(tm.RetryAfter) * time.Second
	}
	msg := err.Error()
	switch {
	case errors.Is(err, bot.ErrorBadRequest) && strings.Contains(msg, "can't parse entities"):
		return badEntities, 0
	case errors.Is(err, bot.ErrorBadRequest) && strings.Contains(msg, "message is too long"):
		return tooLong, 0
	case serverError.MatchString(msg),
		strings.Contains(msg, "error decode response body"),
		strings.Contains(msg, "error do request"):
		return transient, 0
	}
	return permanent, 0
}

// retry calls do until it succeeds, waiting retry_after on a 429 and backing
// off on a 5xx or a broken connection, within the bounds above and ctx. It
// returns the last error when it gives up; a 400 is returned at once for the
// caller to handle.
func (s *Sender) retry(ctx context.Context, what string, do func() error) error {
	floods, servers := 0, 0
	backoff := firstBackoff
	for {
		err := do()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", what, ctx.Err())
		}
		k, wait := classify(err)
		switch k {
		case flood:
			floods++
			if floods > maxFloodWaits || wait > maxRetryAfter {
				return fmt.Errorf("%s: Telegram still refuses after %d waits: %w", what, floods-1, err)
			}
			s.log.Warn("telegram: flood control, waiting", "call", what, "retry_after", wait)
		case transient:
			servers++
			if servers > s.serverRetries {
				return fmt.Errorf("%s: gave up after %d retries: %w", what, s.serverRetries, err)
			}
			wait = backoff
			backoff *= 2
			s.log.Warn("telegram: server or connection error, retrying", "call", what, "wait", wait, "err", err)
		default:
			return fmt.Errorf("%s: %w", what, err)
		}
		if err := s.sleep(ctx, wait); err != nil {
			return fmt.Errorf("%s: %w (while waiting to retry after: %v)", what, err, errShort(k))
		}
	}
}

func errShort(k kind) string {
	if k == flood {
		return "429 Too Many Requests"
	}
	return "server error"
}

// sleepContext waits d or until ctx ends.
func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
