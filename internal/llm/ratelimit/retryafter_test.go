package ratelimit_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

const perMinuteBody = `{"detail": "30 requests for test/model-a per minute exceeded."}`

func TestRetryAfterSources(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		answer  func(now time.Time) fakealbert.Canned
		rpm     int
		want    time.Duration
		wantMin time.Duration // for HTTP dates, read against the real clock
		// clamped: the error keeps the server's value, the shared wait is clamped.
		clamped bool
	}{
		{name: "header in seconds", want: 7 * time.Second, answer: func(time.Time) fakealbert.Canned {
			return fakealbert.Canned{Status: 429, Body: perMinuteBody, Headers: map[string]string{"Retry-After": "7"}}
		}},
		{name: "header as an HTTP date", want: 20 * time.Second, wantMin: 18 * time.Second, answer: func(time.Time) fakealbert.Canned {
			at := time.Now().Add(20 * time.Second).UTC().Format(http.TimeFormat)
			return fakealbert.Canned{Status: 429, Body: perMinuteBody, Headers: map[string]string{"Retry-After": at}}
		}},
		{name: "date in the past falls back on the body", want: 2100 * time.Millisecond, answer: func(time.Time) fakealbert.Canned {
			at := time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
			return fakealbert.Canned{Status: 429, Body: perMinuteBody, Headers: map[string]string{"Retry-After": at}}
		}},
		{name: "absurdly far is clamped to one window", want: ratelimit.MaxRetryAfter, clamped: true, answer: func(time.Time) fakealbert.Canned {
			return fakealbert.Canned{Status: 429, Body: perMinuteBody, Headers: map[string]string{"Retry-After": strconv.Itoa(86400 * 30)}}
		}},
		{name: "other servers' wording in the body", want: 60*time.Second/50 + 100*time.Millisecond, answer: func(time.Time) fakealbert.Canned {
			return fakealbert.Canned{Status: 429, Body: `{"error": {"message": "Limit exceeded: 50 requests per minute"}}`}
		}},
		{name: "nothing usable, rpm known", rpm: 20, want: 3100 * time.Millisecond, answer: func(time.Time) fakealbert.Canned {
			return fakealbert.Canned{Status: 429, Body: ""}
		}},
		{name: "nothing usable, rpm unknown leaves it to the retry backoff", want: 0, answer: func(time.Time) fakealbert.Canned {
			return fakealbert.Canned{Status: 429, Body: "<html>Too Many Requests</html>"}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRig(t, fakealbert.Limits{}, fakealbert.Limits{})
			r.server.Inject(tc.answer(r.clock.Now()))
			var limits map[string]ratelimit.Limits
			if tc.rpm > 0 {
				limits = map[string]ratelimit.Limits{modelA: {RPM: tc.rpm}}
			}
			p := r.layer(limits, false)
			ctx := ctxFor(t)
			_, _, err := call(ctx, p, modelA)
			e := asAPIError(t, err)
			lo := tc.want
			if tc.wantMin > 0 {
				lo = tc.wantMin
			}
			if e.Status != 429 || (e.RetryAfter < lo || e.RetryAfter > tc.want) && !tc.clamped {
				t.Fatalf("status %d, Retry-After %v; want 429 and %v..%v", e.Status, e.RetryAfter, lo, tc.want)
			}
			// Every process now holds back for the same wait: the next call sleeps it
			// (or the rpm spacing, whichever is longer).
			if _, _, err := call(ctx, p, modelA); err != nil {
				t.Fatal(err)
			}
			slept := r.clock.TotalSlept()
			want := max(e.RetryAfter, spacingOf(tc.rpm))
			if tc.clamped {
				want = tc.want
			}
			if slept != want {
				t.Fatalf("next call waited %v, want %v", slept, want)
			}
		})
	}
}

func spacingOf(rpm int) time.Duration {
	if rpm == 0 {
		return 0
	}
	return time.Minute/time.Duration(rpm) + 50*time.Millisecond
}
