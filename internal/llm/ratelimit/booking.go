package ratelimit

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// AnnounceWaitsFrom is the shortest wait for a slot that is announced to the face:
// the debounce between calls (1.25 s at 50 rpm) would otherwise print a line before
// every call. Judgement: a pause under 2 s reads as the model thinking.
const AnnounceWaitsFrom = 2 * time.Second

// acquire waits until the request fits the model's limits, then books it. A wait
// longer than Options.MaxWait ends the call with an error instead.
func (l *Layer) acquire(ctx context.Context, key string, chars int, emit func(llm.StreamEvent)) (string, error) {
	id := strconv.Itoa(pid) + "-" + strconv.FormatInt(l.seq.Add(1), 10)
	for {
		now := l.opts.Clock.Now()
		var wait time.Duration
		err := l.opts.Store.update(now, func(st *sharedState, _ *throttleState) {
			m := st.model(key)
			m.prune(now)
			est := m.estimate(chars)
			wait = m.waitFor(now, l.opts.Table.Limits(canonOf(key), m.Learned), est)
			if wait <= 0 {
				m.take(now, est, id)
			}
		})
		if err != nil {
			return "", err
		}
		if wait <= 0 {
			return id, nil
		}
		if err := pastDeadline(ctx, l.opts.Clock, wait, canonOf(key)); err != nil {
			return "", err
		}
		if l.opts.MaxWait > 0 && wait > l.opts.MaxWait {
			return "", fmt.Errorf("rate limit: the next call to %s may start in %s, more than the %s limit; raise rate_limits.max_wait to wait it out",
				canonOf(key), wait.Round(time.Second), l.opts.MaxWait)
		}
		if wait >= AnnounceWaitsFrom {
			emit(llm.StreamEvent{Kind: llm.EventWait, Wait: wait,
				Text: fmt.Sprintf("rate limit: waiting %s for a slot on %s", wait.Round(100*time.Millisecond), canonOf(key))})
		}
		if err := l.opts.Clock.Sleep(ctx, wait); err != nil {
			return "", fmt.Errorf("waiting for a rate-limit slot: %w", err)
		}
	}
}

func (l *Layer) settle(key, id string, chars int, input int64) {
	now := l.opts.Clock.Now()
	model := canonOf(key)
	l.logErr(l.opts.Store.update(now, func(st *sharedState, th *throttleState) {
		m := st.model(key)
		m.settle(id, chars, input)
		if input > 0 {
			m.countDay(now, input)
		} else {
			m.countDay(now, m.estimate(chars)) // the server sent no usage
		}
		m.Consecutive429 = 0
		th.forget(model)
	}))
}

// release forgets the slot of a request the server refused: it did not count it.
func (l *Layer) release(key, id string) {
	l.logErr(l.opts.Store.update(l.opts.Clock.Now(), func(st *sharedState, _ *throttleState) {
		st.model(key).drop(id)
	}))
}

// block holds every process back for wait, keeps a limit the server stated, and
// returns the model's count of consecutive 429s when count429 is set.
func (l *Layer) block(key string, wait time.Duration, learned Limits, count429 bool) int {
	now := l.opts.Clock.Now()
	var n int
	l.logErr(l.opts.Store.update(now, func(st *sharedState, _ *throttleState) {
		m := st.model(key)
		if until := now.Add(wait).UnixNano(); until > m.BlockedUntil {
			m.BlockedUntil = until
		}
		m.Learned = m.Learned.Over(learned)
		if count429 {
			m.Consecutive429++
		}
		n = m.Consecutive429
	}))
	return n
}

func (l *Layer) openFallback(key string, until time.Time) {
	l.logErr(l.opts.Store.update(l.opts.Clock.Now(), func(st *sharedState, _ *throttleState) {
		m := st.model(key)
		m.FallbackUntil = until.UnixNano()
		m.Consecutive429 = 0
	}))
}

func (l *Layer) exhaust(key string, ex Exhausted, learned Limits) {
	l.logErr(l.opts.Store.update(l.opts.Clock.Now(), func(st *sharedState, th *throttleState) {
		th.record(ex)
		m := st.model(key)
		m.Learned = m.Learned.Over(learned)
	}))
}

func (l *Layer) limits(key string) Limits {
	var lim Limits
	l.logErr(l.opts.Store.view(l.opts.Clock.Now(), func(st *sharedState, _ *throttleState) {
		var learned Limits
		if m := st.Models[key]; m != nil {
			learned = m.Learned
		}
		lim = l.opts.Table.Limits(canonOf(key), learned)
	}))
	return lim
}

// pastDeadline refuses at once a wait that would outlast the caller's deadline, as
// the rate limit it is: a server answering its own clients (serve) then says 429 with
// the wait, instead of holding the request until its timeout. Only on the system
// clock: a deadline is real time, an injected clock's waits are not.
func pastDeadline(ctx context.Context, clock Clock, wait time.Duration, model string) error {
	if _, real := clock.(SystemClock); !real {
		return nil
	}
	dl, ok := ctx.Deadline()
	if !ok || wait <= time.Until(dl) {
		return nil
	}
	return &llm.APIError{Status: http.StatusTooManyRequests, RetryAfter: wait,
		Message: fmt.Sprintf("rate limit: the next call to %s may start in %s, after this call's deadline", model, wait.Round(time.Second))}
}
