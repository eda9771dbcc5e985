package api

import (
	"net/http"
	"syscall"
	"testing"
)

// A run's process group is in the run store while it runs, so a server that dies
// can kill it at its next start, and leaves the store once it is stopped.
func TestARunsProcessGroupIsRecordedWhileItRuns(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "hang", setup{})
	done := make(chan *httpResponse, 1)
	go func() { done <- h.post(t.Context(), `{"prompt":"hang"}`) }()
	id := h.activeID("running")
	pgid, err := syscall.Getpgid(h.grandchild())
	if err != nil {
		t.Fatal(err)
	}
	groups, err := h.store.Groups(t.Context(), id)
	if err != nil || len(groups) != 1 || groups[0].PGID != pgid || groups[0].Start == 0 {
		t.Fatalf("groups of the running run: %v, %v; want the agent's group %d", groups, err, pgid)
	}
	resp, body := h.do("DELETE", "/run/"+id, nil, nil)
	wantStatus(t, resp, body, http.StatusOK)
	<-done
	if groups, err := h.store.Groups(t.Context(), id); err != nil || len(groups) != 0 {
		t.Errorf("groups of the stopped run: %v, %v; want none", groups, err)
	}
}
