package fakealbert_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
)

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

func post(t *testing.T, s *fakealbert.Server, key, body string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/chat/completions", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

func TestLimitsAnswerLikeAlbert(t *testing.T) {
	t.Parallel()
	c := &clock{now: time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)}
	s, err := fakealbert.Start(fakealbert.Options{APIKey: "k", Clock: c, RetryAfter: "seconds",
		Models: []fakealbert.Model{{ID: "m/a", Aliases: []string{"a"}, Limits: fakealbert.Limits{RPM: 2, RPD: 3}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req := `{"model": "a", "messages": [{"role": "user", "content": "hi"}]}`
	if code, _, body := post(t, s, "bad", req); code != 401 || !strings.Contains(body, `"detail":"Invalid API key."`) {
		t.Fatalf("bad key: %d %s", code, body)
	}
	for range 2 {
		if code, _, body := post(t, s, "k", req); code != 200 || !strings.Contains(body, `"prompt_tokens"`) {
			t.Fatalf("%d %s", code, body)
		}
	}
	code, h, body := post(t, s, "k", req)
	if code != 429 || h.Get("Retry-After") != "30" || !strings.Contains(body, `"detail":"2 requests for m/a per minute exceeded."`) {
		t.Fatalf("rpm: %d %v %s", code, h, body)
	}
	c.add(30 * time.Second) // past midnight UTC: a new day, and a new minute
	c.add(31 * time.Second)
	post(t, s, "k", req)
	post(t, s, "k", req)
	c.add(61 * time.Second)
	post(t, s, "k", req)
	if code, _, body := post(t, s, "k", req); code != 429 || !strings.Contains(body, "3 requests for m/a per day exceeded.") {
		t.Fatalf("rpd: %d %s", code, body)
	}
	s.Busy(1, 10)
	if code, h, body := post(t, s, "k", req); code != 503 || h.Get("Retry-After") != "10" || !strings.Contains(body, "Model is too busy") {
		t.Fatalf("busy: %d %v %s", code, h, body)
	}
	if code, _, body := post(t, s, "k", `{"model": "nope", "messages": []}`); code != 404 || !strings.Contains(body, "Model not found.") {
		t.Fatalf("unknown model: %d %s", code, body)
	}
}

func TestUsagePagingRejectsPagesOver100(t *testing.T) {
	t.Parallel()
	s, err := fakealbert.Start(fakealbert.Options{Models: []fakealbert.Model{{ID: "m"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	get := func(q string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodGet, s.URL()+"/me/usage?"+q, nil)
		req.Header.Set("Authorization", "Bearer x")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var doc map[string]any
		_ = json.NewDecoder(res.Body).Decode(&doc)
		return res.StatusCode, doc
	}
	for i := range 15 {
		s.AddUsage("m", int64(1000+i), 5)
	}
	if code, doc := get("limit=101"); code != 422 || doc["detail"] == nil {
		t.Fatalf("limit=101: %d %v", code, doc)
	}
	code, doc := get("offset=10&start_time=1003")
	data, _ := doc["data"].([]any)
	if code != 200 || len(data) != 2 || doc["object"] != "list" {
		t.Fatalf("second page from 1003: %d, %d items", code, len(data))
	}
}
