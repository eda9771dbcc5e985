// Package backend is the contract every agent serve drives meets, whatever runs it
// (a CLI agent as a process, our agent in-process): the run request, its result and
// stream events, and the errors a run can end on.
package backend

import "errors"

// ErrInvalidRequest wraps a backend's refusal of a request: the client's fault (HTTP
// 422), with what to change.
var ErrInvalidRequest = errors.New("invalid request")
