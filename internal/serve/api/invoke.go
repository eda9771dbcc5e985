package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
)

// RunJSON runs one POST /run body in-process, for surfaces that are not HTTP
// clients of the API (the MCP server's run_prompt): the same checks, workspace
// locks, run store, runner and answers, with ctx standing for the connection (its
// end cancels a sync run, as a client hanging up does). It returns the status and
// the JSON body that POST /run would have answered.
func (s *Server) RunJSON(ctx context.Context, body []byte) (int, json.RawMessage) {
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, "/run", bytes.NewReader(body))
	if err != nil {
		raw, _ := json.Marshal(errorBody{Detail: err.Error()})
		return http.StatusInternalServerError, raw
	}
	r.Header.Set("Content-Type", "application/json")
	rec := &recorder{header: http.Header{}}
	s.postRun(rec, r)
	return rec.status, bytes.TrimSpace(rec.body.Bytes())
}

// recorder is the http.ResponseWriter of an in-process run.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(p)
}
