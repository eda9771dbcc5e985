package fakemodel

import (
	"net/http"
	"strings"
	"testing"
)

func TestRecordedRequests(t *testing.T) {
	t.Parallel()
	s := NewTest(t, Script{Turns: []Turn{{Text: []string{"a"}}, {Text: []string{"b"}}}})

	bad := post(t, t.Context(), s.URL(), "{not json")
	bad.Body.Close()
	if bad.StatusCode != 400 {
		t.Errorf("malformed body answered %s, want 400", bad.Status)
	}

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL()+"/chat/completions",
		strings.NewReader(chatBody(true, true)))
	req.Header.Set("Authorization", "Bearer sk-test")
	req.Header.Set("x-affinity", "session-42")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = readSSE(resp.Body)
	resp.Body.Close()

	got := s.Requests()
	if len(got) != 2 {
		t.Fatalf("recorded %d requests, want 2", len(got))
	}
	if got[0].Turn != -1 || got[0].JSON != nil || got[0].Body != "{not json" {
		t.Errorf("malformed request recorded as %+v; it must keep the raw body and consume no turn", got[0])
	}
	r := got[1]
	if r.Method != "POST" || r.Path != "/v1/chat/completions" || r.Turn != 0 {
		t.Errorf("recorded %s %s turn %d, want POST /v1/chat/completions turn 0", r.Method, r.Path, r.Turn)
	}
	if r.Header.Get("Authorization") != "Bearer sk-test" || r.Header.Get("X-Affinity") != "session-42" {
		t.Errorf("recorded headers %v", r.Header)
	}
	opts, _ := r.JSON["stream_options"].(map[string]any)
	if opts["include_usage"] != true {
		t.Errorf("recorded stream_options = %v", r.JSON["stream_options"])
	}
	msgs, _ := r.JSON["messages"].([]any)
	if len(msgs) != 1 || !strings.Contains(r.Body, `"content":"hi"`) {
		t.Errorf("recorded messages %v body %s", msgs, r.Body)
	}

	// Requests returns a snapshot: a caller's edits must not reach the server.
	got[1].Turn = 99
	if s.Requests()[1].Turn != 0 {
		t.Error("Requests exposed the server's own slice")
	}
}

func TestConcurrentRequestsConsumeEachTurnOnce(t *testing.T) {
	t.Parallel()
	const n = 20
	var turns []Turn
	for range n {
		turns = append(turns, Turn{Text: []string{"x"}})
	}
	s := NewTest(t, Script{Turns: turns})
	errs := make(chan error, n)
	for range n {
		go func() {
			resp, err := postErr(t.Context(), s.URL(), chatBody(false, false))
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode != 200 {
					err = &statusError{resp.Status}
				}
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	seen := map[int]bool{}
	for _, r := range s.Requests() {
		if seen[r.Turn] {
			t.Errorf("turn %d served twice", r.Turn)
		}
		seen[r.Turn] = true
	}
	if len(seen) != n {
		t.Errorf("served %d distinct turns, want %d", len(seen), n)
	}
}

type statusError struct{ status string }

func (e *statusError) Error() string { return "status " + e.status }

func TestModelRequestsLeaveTheModelListOut(t *testing.T) {
	s := NewTest(t, Script{Turns: []Turn{{Text: []string{"hi"}}}})
	if resp, err := http.Get(s.URL() + "/models"); err == nil {
		resp.Body.Close()
	}
	resp, err := http.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if all, calls := s.Requests(), s.ModelRequests(); len(all) != 2 || len(calls) != 1 || calls[0].Method != http.MethodPost {
		t.Fatalf("requests %d, model requests %+v", len(all), calls)
	}
}
