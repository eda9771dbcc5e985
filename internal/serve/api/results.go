package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

// resultAnswer is GET /run/result for a run that has not finished, or one that
// ended without a body.
type resultAnswer struct {
	RunID     string `json:"runId"`
	Workspace string `json:"workspace"`
	Status    string `json:"status"`
	Error     string `json:"error,omitempty"`
}

// getResult answers a run's state from the run store, so results outlive a restart.
// Unlike the original, reading a result does not delete it: it stays readable until
// its retention ends.
func (s *Server) getResult(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("runId")
	if id == "" {
		writeJSON(w, http.StatusBadRequest, errorBody{Field: "runId", Detail: "the query parameter runId is required: GET /run/result?runId=<runId>"})
		return
	}
	run, err := s.opts.Store.Get(r.Context(), id)
	if errors.Is(err, runstore.ErrNotFound) {
		writeError(w, http.StatusNotFound, "run "+id+" not found: it never existed or its result expired")
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if len(run.Result) == 0 {
		writeJSON(w, http.StatusOK, resultAnswer{RunID: run.ID, Workspace: run.Workspace, Status: string(run.Status), Error: run.Error})
		return
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(run.Result, &body); err != nil {
		writeError(w, http.StatusInternalServerError, "run "+id+": its stored result is unreadable: "+err.Error())
		return
	}
	// The stored status wins over the body's: a cancel is final even when the
	// worker recorded its result late.
	body["status"], _ = json.Marshal(run.Status)
	if run.Error != "" {
		body["error"], _ = json.Marshal(run.Error)
	}
	writeJSON(w, http.StatusOK, body)
}

// cancelAnswer is the answer of DELETE /run/{id}.
type cancelAnswer struct {
	RunID  string `json:"runId"`
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
}

// deleteRun cancels a run, whatever it is doing: waiting for its workspace, running
// an attempt, or between structured-output retries. It answers once the run's
// processes are gone, or after CancelWait with status "cancelling".
func (s *Server) deleteRun(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	run := s.lookup(id)
	if run == nil {
		s.cancelStored(w, r, id)
		return
	}
	run.cancel(errCancelledByClient)
	var fe *runstore.FinishedError
	if err := s.finish(id, runstore.Cancelled, nil, "the run was cancelled: "+errCancelledByClient.Error()); errors.As(err, &fe) && fe.Status != runstore.Cancelled {
		writeJSON(w, http.StatusConflict, cancelAnswer{RunID: id, Status: string(fe.Status), Detail: "the run had already finished"})
		return
	}
	t := time.NewTimer(s.opts.CancelWait)
	defer t.Stop()
	select {
	case <-run.done:
		writeJSON(w, http.StatusOK, cancelAnswer{RunID: id, Status: string(runstore.Cancelled)})
	case <-t.C:
		writeJSON(w, http.StatusAccepted, cancelAnswer{RunID: id, Status: "cancelling",
			Detail: "the run is cancelled and its processes are being stopped"})
	case <-r.Context().Done():
	}
}

// cancelStored answers DELETE for a run this server is not executing.
func (s *Server) cancelStored(w http.ResponseWriter, r *http.Request, id string) {
	run, err := s.opts.Store.Get(r.Context(), id)
	switch {
	case errors.Is(err, runstore.ErrNotFound):
		writeError(w, http.StatusNotFound, "run "+id+" not found: it never existed or its result expired")
	case err != nil:
		writeError(w, http.StatusInternalServerError, err.Error())
	case run.Status.Final():
		writeJSON(w, http.StatusConflict, cancelAnswer{RunID: id, Status: string(run.Status), Detail: "the run had already finished"})
	default:
		// Recorded as running but not run here: a store shared with a server that
		// stopped. Recording the cancel is all there is to do.
		_ = s.finish(id, runstore.Cancelled, nil, "the run was cancelled: "+errCancelledByClient.Error())
		writeJSON(w, http.StatusOK, cancelAnswer{RunID: id, Status: string(runstore.Cancelled)})
	}
}
