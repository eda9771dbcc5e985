package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/structured"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// Causes of a run's context ending, which say how it is recorded and answered.
var (
	errCancelledByClient = errors.New("cancelled by DELETE /run/{id}")
	errClientGone        = errors.New("the client disconnected before the run finished")
)

// httpError is a refusal before a run starts.
type httpError struct {
	status     int
	detail     string
	field      string
	retryAfter time.Duration
}

func (e *httpError) write(w http.ResponseWriter) {
	if e.retryAfter > 0 {
		setRetryAfter(w, e.retryAfter)
	}
	writeJSON(w, e.status, errorBody{Detail: e.detail, Field: e.field})
}

// job is a checked request, ready to run.
type job struct {
	body   runBody
	req    backend.Request
	schema *structured.Schema
	// temp is the ephemeral workspace of a structured run that named none; it
	// needs no lock, since no other run can name it.
	temp   *workspace.Temp
	ticket *workspace.Ticket
}

// asyncAnswer is the immediate answer to an async run.
type asyncAnswer struct {
	RunID         string `json:"runId"`
	Workspace     string `json:"workspace"`
	Status        string `json:"status"`
	FireAndForget bool   `json:"fireAndForget,omitempty"`
}

func (s *Server) postRun(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBody)
	body, err := decodeRun(r.Body)
	if err != nil {
		writeBodyError(w, err)
		return
	}
	j, herr := s.prepare(body)
	if herr != nil {
		herr.write(w)
		return
	}
	run, herr := s.admit(j)
	if herr != nil {
		j.dispose()
		herr.write(w)
		return
	}
	if body.Async || body.FireAndForget {
		go s.execute(run, j)
		writeJSON(w, http.StatusAccepted, asyncAnswer{RunID: run.id, Workspace: j.req.Workspace,
			Status: string(runstore.Queued), FireAndForget: body.FireAndForget})
		return
	}
	// The documented rule: a client that disconnects from a sync run cancels it, and
	// the answer comes only once its processes are gone.
	stop := context.AfterFunc(r.Context(), func() { run.cancel(errClientGone) })
	defer stop()
	ans := s.execute(run, j)
	ans.write(w)
}

// prepare checks what the run needs before anything is recorded: the schema, the
// workspace, and the backend's own rules.
func (s *Server) prepare(b runBody) (*job, *httpError) {
	j := &job{body: b}
	if raw := bytes.TrimSpace(b.JSONSchema); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		sch, err := structured.Compile(raw)
		if err != nil {
			return nil, &httpError{status: http.StatusBadRequest, field: "jsonSchema", detail: `field "jsonSchema": ` + err.Error()}
		}
		j.schema = sch
	}
	mode := backend.EventsNone
	switch {
	case b.EventMode == "full":
		mode = backend.EventsFull
	case b.EventMode == "none":
	case j.schema != nil || b.OutputFormat == "json-verbose":
		mode = backend.EventsFull
	}
	j.req = backend.Request{
		Prompt: b.Prompt, Model: b.Model, SystemPrompt: b.SystemPrompt, AppendSystemPrompt: b.AppendSystemPrompt,
		Continue: !b.NoContinue, Resume: b.Resume, Thinking: b.Thinking, ToolsAllowlist: b.ToolsAllowlist,
		NoTools: b.NoTools, ExtraArgs: b.ExtraArgs, Env: b.Env, EventMode: mode,
		Timeout: seconds(b.TimeoutSeconds), IdleTimeout: seconds(b.IdleTimeoutSeconds),
	}
	if j.schema != nil {
		j.req.JSONSchema = j.schema.JSON()
	}
	if j.schema != nil && b.Workspace == "" {
		tmp, err := workspace.Ephemeral(s.opts.TempParent)
		if err != nil {
			return nil, &httpError{status: http.StatusInternalServerError, detail: err.Error()}
		}
		j.temp, j.req.Workspace, j.req.Continue = tmp, tmp.Dir, false
	} else {
		dir, err := s.opts.Root.Workspace(b.Workspace, true)
		var ne *workspace.NameError
		switch {
		case errors.As(err, &ne):
			return nil, &httpError{status: http.StatusBadRequest, field: "workspace", detail: err.Error()}
		case err != nil:
			return nil, &httpError{status: http.StatusInternalServerError, detail: err.Error()}
		}
		j.req.Workspace = dir
	}
	if err := s.validate(&j.req); err != nil {
		j.dispose()
		return nil, &httpError{status: http.StatusUnprocessableEntity, detail: err.Error()}
	}
	return j, nil
}

// validate applies the backend's rules to req: what a CLI adapter cannot pass on, a
// model or thinking level the backend does not know.
func (s *Server) validate(req *backend.Request) error {
	if a, ok := s.opts.Backend.(cli.Adapter); ok {
		return cli.Validate(a, req)
	}
	if v, ok := s.opts.Backend.(cli.Validator); ok {
		return v.Validate(req)
	}
	return nil
}

// dispose frees what prepare took, for a job that will not run.
func (j *job) dispose() {
	if j.ticket != nil {
		abandon(j.ticket)
		j.ticket = nil
	}
	if j.temp != nil {
		_ = j.temp.Remove()
		j.temp = nil
	}
}

// abandon gives up a place in a workspace queue without waiting for it.
func abandon(t *workspace.Ticket) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = t.Wait(ctx)
}

// admit takes the run's place in its workspace queue (429 when full), records it and
// registers it as active.
func (s *Server) admit(j *job) (*activeRun, *httpError) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil, &httpError{status: http.StatusServiceUnavailable, detail: "the server is shutting down: retry on its next start"}
	}
	if j.temp == nil {
		t, err := s.opts.Locks.Enqueue(j.req.Workspace)
		var full *workspace.QueueFullError
		if errors.As(err, &full) {
			s.metrics.refused.Inc()
			return nil, &httpError{status: http.StatusTooManyRequests, detail: err.Error(), retryAfter: full.RetryAfter}
		}
		if err != nil {
			return nil, &httpError{status: http.StatusInternalServerError, detail: err.Error()}
		}
		j.ticket = t
	}
	id := newRunID()
	ctx, cancel := storeContext()
	defer cancel()
	err := s.opts.Store.Create(ctx, runstore.Run{
		ID: id, Workspace: j.req.Workspace, Backend: s.opts.Backend.Name(), Status: runstore.Queued,
		Request: requestRecord(j.body), Async: j.body.Async || j.body.FireAndForget,
	})
	if err != nil {
		return nil, &httpError{status: http.StatusInternalServerError, detail: "record the run: " + err.Error()}
	}
	run, ok := s.register(id, j)
	if !ok {
		s.finish(id, runstore.Cancelled, nil, errShutdown.Error())
		return nil, &httpError{status: http.StatusServiceUnavailable, detail: "the server is shutting down: retry on its next start"}
	}
	return run, nil
}

// requestRecord is the request as kept in the run store: everything but the values
// of env, which may hold keys.
func requestRecord(b runBody) json.RawMessage {
	rec := map[string]any{"prompt": b.Prompt}
	for _, f := range runFields {
		if f.name == "env" || f.name == "prompt" {
			continue
		}
		v := f.dst(&b)
		raw, _ := json.Marshal(v)
		if string(raw) != "null" && string(raw) != `""` && string(raw) != "false" && string(raw) != "0" {
			rec[f.name] = json.RawMessage(raw)
		}
	}
	if len(b.Env) > 0 {
		names := make([]string, 0, len(b.Env))
		for k := range b.Env {
			names = append(names, k)
		}
		rec["envNames"] = names
	}
	raw, _ := json.Marshal(rec)
	return raw
}

// storeContext bounds one write to the run store. Judgement: the store's own busy
// timeout is 5 s; past 10 s something is broken and the run goes on unrecorded.
func storeContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 10*time.Second)
}

func seconds(s float64) time.Duration {
	if s <= 0 {
		return 0
	}
	return time.Duration(s * float64(time.Second))
}

func (s *Server) finish(id string, st runstore.Status, result json.RawMessage, errMsg string) error {
	ctx, cancel := storeContext()
	defer cancel()
	err := s.opts.Store.Finish(ctx, id, st, result, errMsg)
	if err != nil && !errors.Is(err, runstore.ErrFinished) {
		s.opts.Logger.Error("record the end of a run", "run", id, "err", err)
	}
	return err
}

func describeCause(ctx context.Context) string {
	if c := context.Cause(ctx); c != nil {
		return c.Error()
	}
	return fmt.Sprint(ctx.Err())
}
