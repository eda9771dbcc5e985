package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// activeID waits for the only active run and returns its id.
func (h *harness) activeID(status string) string {
	h.t.Helper()
	var id string
	waitFor(h.t, "a "+status+" run", func() bool {
		for _, r := range h.srv.inFlight() {
			if r.Status == status {
				id = r.RunID
				return true
			}
		}
		return false
	})
	return id
}

func TestDeleteCancelsASyncRunAndItsProcessGroup(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "hang", setup{})
	done := make(chan *httpResponse, 1)
	go func() { done <- h.post(t.Context(), `{"prompt":"hang"}`) }()
	id := h.activeID("running")
	pid := h.grandchild()
	var c cancelAnswer
	resp, body := h.do("DELETE", "/run/"+id, nil, &c)
	wantStatus(t, resp, body, http.StatusOK)
	if c.Status != "cancelled" || c.RunID != id {
		t.Errorf("cancel answer %s", body)
	}
	// DELETE answers once the group is gone.
	if alive(pid) {
		t.Errorf("the agent's child %d outlived the cancel", pid)
	}
	sync := <-done
	if sync.err != nil {
		t.Fatal(sync.err)
	}
	wantStatus(t, sync.resp, sync.body, http.StatusConflict)
	if sync.json["stopped"] != "cancelled" {
		t.Errorf("sync answer %s", sync.body)
	}
	if st := h.status(id); st != "cancelled" {
		t.Errorf("stored status %q", st)
	}
	// A finished run cannot be cancelled again.
	resp, body = h.do("DELETE", "/run/"+id, nil, &c)
	wantStatus(t, resp, body, http.StatusConflict)
	if c.Status != "cancelled" {
		t.Errorf("second cancel %s", body)
	}
}

// httpResponse is an answer read off the test's goroutine, where t must not be used.
type httpResponse struct {
	resp *http.Response
	body []byte
	json map[string]any
	err  error
}

// post sends POST /run with the test token, without touching t.
func (h *harness) post(ctx context.Context, body string) *httpResponse {
	req, err := http.NewRequestWithContext(ctx, "POST", h.http.URL+"/run", strings.NewReader(body))
	if err != nil {
		return &httpResponse{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return &httpResponse{err: err}
	}
	defer resp.Body.Close()
	out := &httpResponse{resp: resp}
	out.body, out.err = io.ReadAll(resp.Body)
	_ = json.Unmarshal(out.body, &out.json)
	return out
}

func TestDeleteCancelsAnAsyncRunWaitingForItsWorkspace(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "hang", setup{})
	var first, second asyncAnswer
	h.do("POST", "/run", map[string]any{"prompt": "a", "async": true, "workspace": "w"}, &first)
	h.activeID("running")
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "b", "async": true, "workspace": "w"}, &second)
	wantStatus(t, resp, body, http.StatusAccepted)
	var st statusAnswer
	h.do("GET", "/status", nil, &st)
	if st.Queued != 1 || st.Running != 1 || len(st.BusyWorkspaces) != 1 || st.BusyWorkspaces[0].Waiting != 1 {
		t.Errorf("status %+v", st)
	}
	resp, body = h.do("DELETE", "/run/"+second.RunID, nil, nil)
	wantStatus(t, resp, body, http.StatusOK)
	resp, body = h.do("DELETE", "/run/"+first.RunID, nil, nil)
	wantStatus(t, resp, body, http.StatusOK)
	for _, id := range []string{first.RunID, second.RunID} {
		if s := h.status(id); s != "cancelled" {
			t.Errorf("run %s: %q", id, s)
		}
	}
	waitFor(t, "the workspace to be free", func() bool { return len(h.srv.opts.Locks.Busy()) == 0 })
}

func TestDeleteStopsStructuredRetries(t *testing.T) {
	t.Parallel()
	// The first answer does not match; the retry hangs in the model call.
	h, model := newNativeHarness(t,
		fakemodel.Turn{Text: []string{"no JSON here"}},
		fakemodel.Turn{Text: []string{"{"}, Hang: true},
	)
	var acc asyncAnswer
	h.do("POST", "/run", map[string]any{"prompt": "p", "async": true, "jsonSchema": map[string]any{"type": "object"}}, &acc)
	waitFor(t, "the retry to reach the model", func() bool { return len(model.ModelRequests()) == 2 })
	resp, body := h.do("DELETE", "/run/"+acc.RunID, nil, nil)
	wantStatus(t, resp, body, http.StatusOK)
	if s := h.status(acc.RunID); s != "cancelled" {
		t.Errorf("status %q", s)
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(model.ModelRequests()); n != 2 {
		t.Errorf("%d model calls after the cancel, want 2", n)
	}
}

func TestQueueFullIs429WithRetryAfter(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "hang", setup{queueBound: -1}) // no run may wait
	var first asyncAnswer
	h.do("POST", "/run", map[string]any{"prompt": "a", "async": true, "workspace": "busy"}, &first)
	h.activeID("running")
	for _, async := range []bool{false, true} {
		var e errorBody
		resp, body := h.do("POST", "/run", map[string]any{"prompt": "b", "async": async, "workspace": "busy"}, &e)
		wantStatus(t, resp, body, http.StatusTooManyRequests)
		if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || n < 1 {
			t.Errorf("Retry-After %q", resp.Header.Get("Retry-After"))
		}
	}
	// Another workspace is not held up.
	h2 := h.srv.inFlight()
	if len(h2) != 1 {
		t.Errorf("%d runs in flight, want 1", len(h2))
	}
	h.do("DELETE", "/run/"+first.RunID, nil, nil)
}

func TestClientDisconnectCancelsTheSyncRun(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "hang", setup{})
	ctx, cancel := context.WithCancel(t.Context())
	go h.post(ctx, `{"prompt":"hang"}`)
	id := h.activeID("running")
	pid := h.grandchild()
	cancel()
	waitFor(t, "the run to be cancelled", func() bool { return h.status(id) == "cancelled" })
	waitFor(t, "the run to end", func() bool { return len(h.srv.inFlight()) == 0 })
	if alive(pid) {
		t.Errorf("the agent's child %d outlived the client", pid)
	}
	var res map[string]any
	h.do("GET", "/run/result?runId="+id, nil, &res)
	if res["error"] == nil || res["httpStatus"] != 409.0 {
		t.Errorf("result %v", res)
	}
}

func TestShutdownCancelsRunsAndRefusesNewOnes(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "hang", setup{})
	var acc asyncAnswer
	h.do("POST", "/run", map[string]any{"prompt": "a", "async": true}, &acc)
	h.activeID("running")
	pid := h.grandchild()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if err := h.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Errorf("the agent's child %d outlived the shutdown", pid)
	}
	if s := h.status(acc.RunID); s != "cancelled" {
		t.Errorf("status %q", s)
	}
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "b"}, nil)
	wantStatus(t, resp, body, http.StatusServiceUnavailable)
}
