package ratelimit

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Kind names the limit a 429 says was passed.
type Kind string

const (
	KindRPM     Kind = "rpm"
	KindRPD     Kind = "rpd"
	KindTPM     Kind = "tpm"
	KindTPD     Kind = "tpd"
	KindUnknown Kind = ""
)

// Daily reports whether the limit resets only at midnight UTC.
func (k Kind) Daily() bool { return k == KindRPD || k == KindTPD }

// Stated is what a 429 body says: which limit, its value and the model, when it
// says so. Albert (OpenGateLLM) writes "50 requests for Qwen/... per minute
// exceeded.", "2460000 input tokens for ... per day exceeded." (older builds add
// "(remaining: X)"); other servers write "Limit exceeded: 50 requests per minute".
type Stated struct {
	Kind  Kind
	Value int
	Model string
}

// statedPattern finds "<N> [input] requests|tokens [for <model>] per minute|day".
// The original's patterns ("requests per day") missed Albert's own wording, where
// "for <model>" sits between the two (notes §3.4).
var statedPattern = regexp.MustCompile(`(?i)(\d+)\s+(?:input\s+)?(requests?|tokens?)(?:\s+for\s+(\S+))?\s+per\s+(minute|day)`)

// perDayPattern catches a daily quota worded without a number.
var perDayPattern = regexp.MustCompile(`(?i)\bper\s+day\b`)

// classifyLen is how much of a body is searched: the seed classifies on the first
// 500 characters, enough for every rate-limit text Albert sends.
const classifyLen = 500

// ParseStated reads the limit a rate-limit message states. A message that says
// "per day" without a number is still KindRPD or KindTPD with Value 0.
func ParseStated(msg string) Stated {
	if len(msg) > classifyLen {
		msg = msg[:classifyLen]
	}
	m := statedPattern.FindStringSubmatch(msg)
	if m == nil {
		if perDayPattern.MatchString(msg) {
			if strings.Contains(strings.ToLower(msg), "token") {
				return Stated{Kind: KindTPD}
			}
			return Stated{Kind: KindRPD}
		}
		return Stated{}
	}
	n, _ := strconv.Atoi(m[1])
	tokens := strings.HasPrefix(strings.ToLower(m[2]), "token")
	day := strings.EqualFold(m[4], "day")
	s := Stated{Value: n, Model: strings.TrimRight(m[3], ".,;:")}
	switch {
	case tokens && day:
		s.Kind = KindTPD
	case tokens:
		s.Kind = KindTPM
	case day:
		s.Kind = KindRPD
	default:
		s.Kind = KindRPM
	}
	return s
}

// Learned returns the limits s states, for the shared table of learned limits.
func (s Stated) Learned() Limits {
	switch s.Kind {
	case KindRPM:
		return Limits{RPM: s.Value}
	case KindRPD:
		return Limits{RPD: s.Value}
	case KindTPM:
		return Limits{TPM: s.Value}
	case KindTPD:
		return Limits{TPD: s.Value}
	}
	return Limits{}
}

const (
	// MaxRetryAfter bounds a server's Retry-After. Judgement: a per-minute limit frees
	// a slot within one 60 s window, so a longer wait is a server bug or a daily
	// quota (handled apart); honouring "wait a day" would freeze every process.
	MaxRetryAfter = 60 * time.Second
	// bodyRetryMargin is added to 60/N for bodies that state N requests per minute:
	// the seed's 0.1 s, one debounce past the slot.
	bodyRetryMargin = 100 * time.Millisecond
)

// RetryWait decides how long to wait after a 429 or 503: the server's Retry-After
// (already read from seconds or an HTTP date; zero when absent or in the past),
// clamped to MaxRetryAfter; else 60/N + 0.1 s for a body stating N requests per
// minute; else 60/rpm + 0.1 s when the model's rpm is known; else zero, which leaves
// the wait to the retry policy's backoff.
func RetryWait(header time.Duration, st Stated, rpm int) time.Duration {
	switch {
	case header > 0:
		return min(header, MaxRetryAfter)
	case st.Kind == KindRPM && st.Value > 0:
		return time.Minute/time.Duration(st.Value) + bodyRetryMargin
	case rpm > 0:
		return time.Minute/time.Duration(rpm) + bodyRetryMargin
	}
	return 0
}

// NextMidnightUTC is when a daily quota counted at t resets.
func NextMidnightUTC(t time.Time) time.Time {
	u := t.UTC()
	return time.Date(u.Year(), u.Month(), u.Day()+1, 0, 0, 0, 0, time.UTC)
}
