package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/etalab-ia/albert-code/internal/proctrack"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/structured"
)

// activeRun is a run this server is executing: queued for its workspace, or running.
type activeRun struct {
	id, workspace string
	async         bool
	created       time.Time
	running       atomic.Bool

	ctx    context.Context
	cancel context.CancelCauseFunc
	// done is closed once the run has ended and its processes are gone.
	done chan struct{}
}

func newRunID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// register makes a run active; it fails once Shutdown has begun.
func (s *Server) register(id string, j *job) (*activeRun, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false
	}
	ctx, cancel := context.WithCancelCause(s.base)
	// The process groups the run starts stay on record while they run: a server
	// that dies kills them at its next start.
	ctx = proctrack.WithSink(ctx, runstore.Sink(s.opts.Store, id, func(err error) {
		s.opts.Logger.Warn("record a process group of a run", "run", id, "err", err)
	}))
	run := &activeRun{id: id, workspace: j.req.Workspace, async: j.body.Async || j.body.FireAndForget,
		created: time.Now(), ctx: ctx, cancel: cancel, done: make(chan struct{})}
	s.active[id] = run
	s.wg.Add(1)
	return run, true
}

func (s *Server) lookup(id string) *activeRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active[id]
}

// execute runs a job to its end: it waits for the workspace, runs the attempts,
// records everything and returns the answer.
func (s *Server) execute(run *activeRun, j *job) *answer {
	start := time.Now()
	defer func() {
		j.dispose()
		s.mu.Lock()
		delete(s.active, run.id)
		s.mu.Unlock()
		run.cancel(nil)
		close(run.done)
		s.wg.Done()
	}()
	ans := s.attempts(run, j)
	ans.body.RunID, ans.body.Workspace = run.id, j.req.Workspace
	ans.record(s, run.id)
	s.metrics.observe(ans, time.Since(start))
	return ans
}

// attempts waits for the workspace and runs the request: once, or through the
// structured-output retries when there is a schema.
func (s *Server) attempts(run *activeRun, j *job) *answer {
	if j.ticket != nil {
		release, err := j.ticket.Wait(run.ctx)
		j.ticket = nil
		if err != nil {
			return cancelled(run.ctx)
		}
		defer release()
	}
	run.running.Store(true)
	ctx, cancel := storeContext()
	if err := s.opts.Store.Start(ctx, run.id); err != nil {
		s.opts.Logger.Warn("record the start of a run", "run", run.id, "err", err)
	}
	cancel()

	b := s.opts.Backend
	events := s.newEventLog(run.id)
	defer events.flush()
	if j.schema == nil {
		res, err := s.opts.Runner.Run(run.ctx, b, j.req, events.forAttempt(0))
		o := &structured.Outcome{Attempts: []structured.Attempt{{Usage: res.Usage, ExitCode: res.ExitCode, Result: res}}, Usage: res.Usage}
		return s.plainAnswer(run.ctx, j, o, err)
	}
	attempt := func(ctx context.Context, t structured.Turn) (backend.Result, error) {
		req := j.req
		req.Prompt = t.Prompt
		if t.Index > 0 {
			req.Continue, req.Resume = false, t.Resume
		}
		return s.opts.Runner.Run(ctx, b, req, events.forAttempt(t.Index))
	}
	o, err := structured.Run(run.ctx, j.req.Prompt, j.schema, attempt, structured.Options{})
	return s.structuredAnswer(run.ctx, j, o, err)
}

// answer is what a run produced: the HTTP status and body, and how the run store
// records it.
type answer struct {
	status     int
	final      runstore.Status
	errMsg     string
	retryAfter time.Duration
	body       runResponse
	outcome    *structured.Outcome
}

// runResponse is the body of a finished run. The lean answer is its first four
// fields; the rest appear with a schema, eventMode full, includeRaw or a failure.
type runResponse struct {
	RunID     string `json:"runId"`
	Workspace string `json:"workspace"`
	// Status and HTTPStatus are set in GET /run/result answers.
	Status     string `json:"status,omitempty"`
	HTTPStatus int    `json:"httpStatus,omitempty"`
	ExitCode   int    `json:"exitCode"`
	Text       string `json:"text"`

	JSON        json.RawMessage        `json:"json,omitempty"`
	ParseError  string                 `json:"parseError,omitempty"`
	SessionID   string                 `json:"sessionId,omitempty"`
	Usage       *backend.Usage         `json:"usage,omitempty"`
	Attempts    []structured.Attempt   `json:"attempts,omitempty"`
	JSONRetries int                    `json:"jsonRetries,omitempty"`
	Events      *[]structured.Envelope `json:"events,omitempty"`
	// OutputError says what of the agent's output could not be read, quoting the
	// raw line; the rest of the answer is what could be read.
	OutputError string `json:"outputError,omitempty"`

	Detail        string            `json:"detail,omitempty"`
	Stopped       string            `json:"stopped,omitempty"`
	ErrorKind     backend.ErrorKind `json:"errorKind,omitempty"`
	ProviderError string            `json:"providerError,omitempty"`
	AgentError    string            `json:"agentError,omitempty"`
	Stdout        *string           `json:"stdout,omitempty"`
	Stderr        *string           `json:"stderr,omitempty"`
}

func (a *answer) write(w http.ResponseWriter) {
	if a.retryAfter > 0 {
		setRetryAfter(w, a.retryAfter)
	}
	writeJSON(w, a.status, a.body)
}

// record keeps the answer in the run store: its attempts, then its final status.
func (a *answer) record(s *Server, id string) {
	ctx, cancel := storeContext()
	defer cancel()
	if a.outcome != nil {
		for _, at := range a.outcome.Attempts {
			usage, _ := json.Marshal(at.Usage)
			err := s.opts.Store.AppendAttempt(ctx, id, runstore.Attempt{Index: at.Index, Usage: usage,
				ExitCode: at.ExitCode, ParseError: at.ParseError, SessionID: at.Result.SessionID})
			if err != nil {
				s.opts.Logger.Warn("record an attempt", "run", id, "err", err)
			}
		}
	}
	stored := a.body
	stored.HTTPStatus = a.status
	raw, _ := json.Marshal(stored)
	_ = s.finish(id, a.final, raw, a.errMsg)
}

// cancelled is the answer of a run stopped by its context: a DELETE (409), a client
// gone (nobody reads it), or a shutdown (503).
func cancelled(ctx context.Context) *answer {
	status := http.StatusConflict
	if errors.Is(context.Cause(ctx), errShutdown) {
		status = http.StatusServiceUnavailable
	}
	msg := "the run was cancelled: " + describeCause(ctx)
	return &answer{status: status, final: runstore.Cancelled, errMsg: msg, body: runResponse{Detail: msg, Stopped: "cancelled", ExitCode: -1}}
}
