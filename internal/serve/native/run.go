package native

import (
	"cmp"
	"context"
	"errors"
	"time"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// Causes of a run's context ending other than a cancel from the caller.
var (
	errTimeout = errors.New("run timeout")
	errIdle    = errors.New("no event for the idle timeout")
)

// Run runs req with our agent in req.Workspace, giving every event to emit as it
// happens. The error is for what prevented the run (a refused request wraps
// backend.ErrInvalidRequest); a provider failure is a Result with ProviderError and
// ErrorKind, and a stopped run a Result with Stopped set.
func (n *Native) Run(ctx context.Context, req *backend.Request, emit func(backend.Event)) (backend.Result, error) {
	if err := n.Validate(req); err != nil {
		return backend.Result{}, invalid(err)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	total := time.AfterFunc(cmp.Or(req.Timeout, n.opts.Timeout), func() { cancel(errTimeout) })
	defer total.Stop()
	idleAfter := cmp.Or(req.IdleTimeout, n.opts.IdleTimeout)
	idle := time.AfterFunc(idleAfter, func() { cancel(errIdle) })
	defer idle.Stop()

	errs := &providerErrors{}
	run, err := n.prepare(req, errs.wrap(req.Thinking))
	if err != nil {
		return backend.Result{}, err
	}
	defer run.Close()
	if run.SessionID != "" {
		emit(backend.Event{Kind: backend.EventSession, SessionID: run.SessionID})
	}
	before := run.Agent.Stats()
	tr := newTranslator(emit, errs, req.EventMode == backend.EventsFull, before.Cost)
	res := run.Agent.Run(ctx, req.Prompt, func(ev agent.Event) {
		idle.Reset(idleAfter)
		tr.event(ev)
	})
	out := backend.Result{
		Text: res.Text, SessionID: run.SessionID, StopReason: string(res.Stop),
		Usage: usageBetween(before, res.Stats), Records: tr.records, RecordsCut: tr.cut,
	}
	switch {
	case res.Stop == agent.StopCancelled:
		kind := stoppedBy(ctx)
		out.Stopped, out.ErrorKind = string(kind), kind
		emit(backend.Event{Kind: backend.EventError, Text: "run stopped: " + context.Cause(ctx).Error(), ErrorKind: kind})
	case res.Err != nil:
		out.ProviderError, out.ErrorKind = res.Err.Error(), errs.kindOf(res.Err)
	}
	return out, nil
}
