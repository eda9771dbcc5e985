package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/structured"
	"github.com/etalab-ia/albert-code/internal/serve/supervisor"
)

// plainAnswer is the answer of a run without a schema: lean unless the request asked
// for events or raw output, or the run failed.
func (s *Server) plainAnswer(ctx context.Context, j *job, o *structured.Outcome, err error) *answer {
	res := o.Last()
	a := &answer{outcome: o}
	a.body.ExitCode, a.body.Text = res.ExitCode, res.Text
	a.body.OutputError = o.OutputError()
	if j.req.EventMode == backend.EventsFull {
		s.diagnostics(a, o)
	}
	a.classify(ctx, res, err)
	a.raw(j, res)
	return a
}

// structuredAnswer is the full answer of a run with a schema: the value, the
// session, the usage summed over the attempts and each attempt.
func (s *Server) structuredAnswer(ctx context.Context, j *job, o *structured.Outcome, err error) *answer {
	res := o.Last()
	a := &answer{outcome: o}
	a.body.ExitCode, a.body.Text = res.ExitCode, res.Text
	a.body.OutputError = o.OutputError()
	s.diagnostics(a, o)
	a.body.Attempts = o.Attempts
	a.body.JSONRetries = o.Retries()
	if o.Err != nil {
		a.body.ParseError = o.Err.Error()
	}
	switch o.End {
	case structured.Matched:
		a.body.JSON, a.body.ParseError = o.Parsed.JSON, ""
		a.status, a.final = http.StatusOK, runstore.Completed
	case structured.Exhausted:
		a.status, a.final = http.StatusUnprocessableEntity, runstore.Failed
		a.errMsg = fmt.Sprintf("no answer matched the schema after %d attempt(s): %s", len(o.Attempts), a.body.ParseError)
		a.body.Detail = a.errMsg
	default:
		a.classify(ctx, res, err)
	}
	if j.req.EventMode != backend.EventsFull {
		a.body.Events = nil
	}
	a.raw(j, res)
	return a
}

// diagnostics adds the session, the usage and the events of every attempt.
func (s *Server) diagnostics(a *answer, o *structured.Outcome) {
	a.body.SessionID = o.SessionID()
	u := o.Usage
	a.body.Usage = &u
	evs := o.Envelopes(s.opts.Backend.Name())
	if evs == nil {
		evs = []structured.Envelope{}
	}
	a.body.Events = &evs
}

// raw adds stdout and stderr when asked for, and stderr of an agent that failed.
func (a *answer) raw(j *job, res backend.Result) {
	if j.body.IncludeRaw {
		a.body.Stdout, a.body.Stderr = &res.Stdout, &res.Stderr
	} else if res.ExitCode != 0 && res.Stderr != "" {
		a.body.Stderr = &res.Stderr
	}
}

// classify sets the status of a run from its last result and the runner's error.
func (a *answer) classify(ctx context.Context, res backend.Result, err error) {
	fail := func(status int, detail string) {
		a.status, a.final, a.errMsg, a.body.Detail = status, runstore.Failed, detail, detail
	}
	switch {
	case ctx.Err() != nil || res.Stopped == string(backend.ErrorCancelled):
		c := cancelled(ctx)
		a.status, a.final, a.errMsg = c.status, c.final, c.errMsg
		a.body.Detail, a.body.Stopped = c.body.Detail, c.body.Stopped
	case errors.Is(err, backend.ErrInvalidRequest):
		fail(http.StatusUnprocessableEntity, err.Error())
	case errors.Is(err, supervisor.ErrNotFound):
		a.body.ExitCode = 127
		msg := err.Error()
		a.body.Stderr = &msg
		fail(http.StatusInternalServerError, "the agent could not be started: "+msg)
	case err != nil:
		fail(http.StatusInternalServerError, err.Error())
	case res.Stopped == string(supervisor.TimedOut) || res.Stopped == string(supervisor.Idle):
		a.body.Stopped = res.Stopped
		what := "its total timeout (timeoutSeconds)"
		if res.Stopped == string(supervisor.Idle) {
			what = "its idle timeout (idleTimeoutSeconds): no output for that long"
		}
		fail(http.StatusGatewayTimeout, "the run was stopped at "+what)
	case res.ProviderError != "":
		a.body.ProviderError, a.body.ErrorKind = res.ProviderError, res.ErrorKind
		switch res.ErrorKind {
		case backend.ErrorRateLimit:
			fail(http.StatusTooManyRequests, "the model provider is rate limiting: "+res.ProviderError)
		case backend.ErrorAuth, backend.ErrorUnreachable:
			fail(http.StatusBadGateway, "the model provider failed: "+res.ProviderError)
		default:
			fail(http.StatusBadRequest, "the model provider refused the request: "+res.ProviderError)
		}
	// After the provider's refusal: the real CLIs exit 1 on one, and its reason is
	// what the client needs. The agent's own failure likewise, whatever its exit code.
	case res.AgentError != "":
		a.body.AgentError, a.body.ErrorKind = res.AgentError, backend.ErrorAgent
		fail(http.StatusInternalServerError, "the agent failed on its own: "+res.AgentError)
	case res.ExitCode != 0:
		detail := fmt.Sprintf("the agent exited with code %d", res.ExitCode)
		if res.Signal != "" {
			detail = "the agent was killed by signal " + res.Signal
		}
		fail(http.StatusInternalServerError, detail)
	default:
		a.status, a.final = http.StatusOK, runstore.Completed
	}
}
