// Package backend is the contract every agent serve drives meets, whatever runs it
// (a CLI agent as a process, our agent in-process): the run request, its result and
// stream events, the Backend that runs them, and the errors a run can end on.
package backend

import (
	"context"
	"errors"
)

// Backend runs requests: a CLI agent as a supervised process through its adapter,
// or our agent in-process. The runner calls Run for every run, whatever the kind.
type Backend interface {
	// Name is the backend's name, as ALBERT_CODE_ADAPTER and the API's backend
	// field give it.
	Name() string
	// Run runs req, giving every event to emit as it happens (from one goroutine at
	// a time), except the stop: the runner ends every run with exactly one. The
	// error is for what prevented the run; an agent that failed is a Result.
	Run(ctx context.Context, req *Request, emit func(Event)) (Result, error)
}

// ErrInvalidRequest wraps a backend's refusal of a request: the client's fault (HTTP
// 422), with what to change.
var ErrInvalidRequest = errors.New("invalid request")

// ErrNotStarted matches the error of a run that failed before its agent started (see
// NotStarted): nothing ran, so the runner reports no event of it.
var ErrNotStarted = errors.New("the agent did not start")

// NotStarted marks err as a failure before the agent started, keeping its message.
func NotStarted(err error) error { return notStarted{err} }

type notStarted struct{ error }

func (e notStarted) Unwrap() error        { return e.error }
func (e notStarted) Is(target error) bool { return target == ErrNotStarted }
