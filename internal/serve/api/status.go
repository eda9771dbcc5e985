package api

import (
	"net/http"
	"slices"
	"strings"
	"time"
)

// healthz answers without a token: load balancers and container health checks
// call it.
func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "adapter": s.opts.Backend.Name()})
}

type busyWorkspace struct {
	Workspace      string  `json:"workspace"`
	Waiting        int     `json:"waiting"`
	HeldForSeconds float64 `json:"heldForSeconds"`
}

type runSummary struct {
	RunID     string    `json:"runId"`
	Workspace string    `json:"workspace"`
	Status    string    `json:"status"`
	Async     bool      `json:"async"`
	CreatedAt time.Time `json:"createdAt"`
}

type statusAnswer struct {
	Adapter        string          `json:"adapter"`
	BusyWorkspaces []busyWorkspace `json:"busyWorkspaces"`
	Queued         int             `json:"queued"`
	Running        int             `json:"running"`
	Runs           []runSummary    `json:"runs"`
}

// status lists the busy workspaces and the runs in flight, sync and async.
func (s *Server) status(w http.ResponseWriter, _ *http.Request) {
	ans := statusAnswer{Adapter: s.opts.Backend.Name(), BusyWorkspaces: []busyWorkspace{}, Runs: []runSummary{}}
	for _, b := range s.opts.Locks.Busy() {
		ans.BusyWorkspaces = append(ans.BusyWorkspaces, busyWorkspace{Workspace: b.Workspace, Waiting: b.Waiting, HeldForSeconds: b.HeldFor.Seconds()})
	}
	ans.Runs = s.inFlight()
	for _, r := range ans.Runs {
		if r.Status == "running" {
			ans.Running++
		} else {
			ans.Queued++
		}
	}
	writeJSON(w, http.StatusOK, ans)
}

// inFlight lists the active runs, oldest first.
func (s *Server) inFlight() []runSummary {
	s.mu.Lock()
	out := make([]runSummary, 0, len(s.active))
	for _, r := range s.active {
		st := "queued"
		if r.running.Load() {
			st = "running"
		}
		out = append(out, runSummary{RunID: r.id, Workspace: r.workspace, Status: st, Async: r.async, CreatedAt: r.created})
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b runSummary) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.RunID, b.RunID)
	})
	return out
}
