package app

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
)

// streamLines decodes stream-json output into its events, the result last.
func streamLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var evs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("stream-json line %q: %v", sc.Text(), err)
		}
		evs = append(evs, ev)
	}
	return evs
}

func ofType(evs []map[string]any, kind string) []map[string]any {
	var out []map[string]any
	for _, ev := range evs {
		if ev["type"] == kind {
			out = append(out, ev)
		}
	}
	return out
}

// A Retry-After longer than the old 30 s cap is waited out when rate_limits.max_wait
// allows it, and stream-json says what the run waits for and how long. The test
// scales it down: a 2 s Retry-After under the default 10 min max_wait.
func TestARetryAfterWithinMaxWaitIsWaitedOutAndShown(t *testing.T) {
	t.Parallel()
	u := newAlbertUser(t, fakealbert.Limits{}, "")
	u.srv.Inject(fakealbert.Canned{Status: 429, Body: perMinute429, Headers: map[string]string{"Retry-After": "2"}})
	r := u.run("-p", "say hello", "--output", "stream-json")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	evs := streamLines(t, r.stdout)
	waits := ofType(evs, "rate_limit_wait")
	if len(waits) != 1 || waits[0]["wait_seconds"] != 2.0 || !strings.Contains(waits[0]["text"].(string), "the next try of the model call (the server answered: ") ||
		!strings.Contains(waits[0]["text"].(string), "50 requests for test/model-a per minute exceeded.") {
		t.Fatalf("rate_limit_wait events %v, want one of 2 s saying why; output:\n%s", waits, r.stdout)
	}
	res := evs[len(evs)-1]
	if res["type"] != "result" || res["text"] != "ok" || res["model"] != "primary" {
		t.Fatalf("result %v, want the primary's answer", res)
	}
	if s := u.srv.Stats(); s.Canned != 1 || s.Served != 1 {
		t.Fatalf("server stats %+v, want the 429 then one answer", s)
	}
}

// A Retry-After longer than rate_limits.max_wait ends the run at once with an error
// naming the setting to raise; text mode says so on stderr.
func TestARetryAfterBeyondMaxWaitIsAClearError(t *testing.T) {
	t.Parallel()
	u := newAlbertUser(t, fakealbert.Limits{}, "\n[rate_limits]\nmax_wait = \"1s\"\n")
	u.srv.Inject(fakealbert.Canned{Status: 429, Body: perMinute429, Headers: map[string]string{"Retry-After": "2"}})
	r := u.run("-p", "say hello")
	if r.code == 0 || !strings.Contains(r.stderr, "server asked to wait 2s, more than the 1s limit; raise rate_limits.max_wait to wait it out") {
		t.Fatalf("exit %d, stderr:\n%s\nwant a failure naming rate_limits.max_wait", r.code, r.stderr)
	}
	if s := u.srv.Stats(); s.Canned != 1 || s.Served != 0 {
		t.Fatalf("server stats %+v, want no second try", s)
	}
}

// When the fallback answered, the JSON result names it; with the original's
// auto_fallback_enabled = false the primary is tried again instead.
func TestTheResultNamesTheModelThatAnsweredAndAutoFallbackCanBeOff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		config, wantModel string
	}{{"", "backup"}, {"auto_fallback_enabled = false\n", "primary"}} {
		u := newAlbertUser(t, fakealbert.Limits{}, "")
		// A top-level key goes before the tables.
		data, err := os.ReadFile(u.config)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(u.config, append([]byte(tc.config), data...), 0o644); err != nil {
			t.Fatal(err)
		}
		u.srv.Inject(fakealbert.Canned{Status: 429, Body: perMinute429}, fakealbert.Canned{Status: 429, Body: perMinute429})
		r := u.run("-p", "say hello", "--output", "json")
		var res struct {
			Text, Model string
		}
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != 0 {
			t.Fatalf("%q: exit %d, stdout %q (%v), stderr:\n%s", tc.config, r.code, r.stdout, err, r.stderr)
		}
		if res.Text != "ok" || res.Model != tc.wantModel {
			t.Errorf("%q: result %+v, want model %s", tc.config, res, tc.wantModel)
		}
	}
}

// In text mode the wait is a line on stderr saying how long and why.
func TestTextModeSaysWhatTheRunWaitsFor(t *testing.T) {
	t.Parallel()
	u := newAlbertUser(t, fakealbert.Limits{}, "")
	u.srv.Inject(fakealbert.Canned{Status: 429, Body: perMinute429, Headers: map[string]string{"Retry-After": "1"}})
	r := u.run("-p", "say hello")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "ok" || !strings.Contains(r.stderr, "albert-code: waiting 1s: the next try of the model call (the server answered: ") {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant the wait on stderr, then the answer", r.code, r.stdout, r.stderr)
	}
}
