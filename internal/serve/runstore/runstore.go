// Package runstore keeps the serve layer's runs, their attempts and their events, so
// that async results and history survive a restart, for a configurable time. Store
// is the interface the API uses; SQLite is the embedded implementation (one file,
// WAL). A server with many machines may later put PostgreSQL behind the same
// interface.
package runstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/etalab-ia/albert-code/internal/proctrack"
)

// DefaultRetention is how long a finished run stays readable: the original's 6 h.
const DefaultRetention = 6 * time.Hour

// InterruptedError is the error of a run that was running when the server stopped.
const InterruptedError = "interrupted by a restart"

// Status is where a run is in its life: queued (waiting for its workspace), running,
// then one of the final three.
type Status string

const (
	Queued    Status = "queued"
	Running   Status = "running"
	Completed Status = "completed"
	Failed    Status = "failed"
	Cancelled Status = "cancelled"
)

// Final reports whether s ends a run.
func (s Status) Final() bool { return s == Completed || s == Failed || s == Cancelled }

func (s Status) valid() bool { return s == Queued || s == Running || s.Final() }

// Errors a caller checks with errors.Is.
var (
	// ErrNotFound: no run has this id (never created, deleted, or expired).
	ErrNotFound = errors.New("run not found")
	// ErrExists: Create was given an id already used.
	ErrExists = errors.New("run already exists")
	// ErrFinished: the run already ended; its final status is kept.
	ErrFinished = errors.New("run already finished")
)

// NotFoundError names the run that was not found.
type NotFoundError struct{ ID string }

func (e *NotFoundError) Error() string        { return fmt.Sprintf("run %q not found", e.ID) }
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// FinishedError says a run has already ended, and how.
type FinishedError struct {
	ID     string
	Status Status
}

func (e *FinishedError) Error() string {
	return fmt.Sprintf("run %q already finished (%s)", e.ID, e.Status)
}
func (e *FinishedError) Is(target error) bool { return target == ErrFinished }

// Run is one request to an agent and what came of it.
type Run struct {
	ID        string
	Workspace string
	Backend   string
	Status    Status
	// Request is the request as the client sent it, for history.
	Request json.RawMessage
	// Result is the response body once the run finished (Completed, or Failed with
	// a body such as a 422's); Error says why a run failed or was cancelled.
	Result json.RawMessage
	Error  string
	// Async runs are polled; sync runs are recorded for /status and history.
	Async bool

	CreatedAt  time.Time
	StartedAt  time.Time // zero while queued
	FinishedAt time.Time // zero until final
	// ExpiresAt is when a finished run is removed; zero until final.
	ExpiresAt time.Time

	// Attempts are filled by Get, not by List.
	Attempts []Attempt
}

// Attempt is one run of the agent within a run: a structured-output retry adds one.
type Attempt struct {
	Index      int
	Usage      json.RawMessage
	ExitCode   int
	ParseError string
	SessionID  string
}

// Event is one event of a run. Seq numbers start at 1 and run across attempts;
// AppendEvents assigns them.
type Event struct {
	Seq     int64
	Attempt int
	Backend string
	Type    string
	Data    json.RawMessage
	Time    time.Time
}

// Filter selects runs for List. Zero fields select everything.
type Filter struct {
	Statuses  []Status
	Workspace string
	// Limit bounds the answer: 0 means 100, at most 1000.
	Limit int
}

// Store keeps runs. Implementations are safe for concurrent use.
type Store interface {
	Create(ctx context.Context, r Run) error
	// Start moves a queued run to running.
	Start(ctx context.Context, id string) error
	// Finish gives a run its final status, result and error; a run already final
	// keeps its status (a cancel is not overwritten by the worker's late result)
	// and ErrFinished is returned.
	Finish(ctx context.Context, id string, status Status, result json.RawMessage, errMsg string) error
	AppendAttempt(ctx context.Context, id string, a Attempt) error
	// AppendEvents stores events in order, numbering them after the run's last.
	AppendEvents(ctx context.Context, id string, events []Event) error
	Get(ctx context.Context, id string) (Run, error)
	// Events lists a run's events with Seq > after, at most limit (0: all).
	Events(ctx context.Context, id string, after int64, limit int) ([]Event, error)
	List(ctx context.Context, f Filter) ([]Run, error)
	Delete(ctx context.Context, id string) error
	// DeleteExpired removes the finished runs whose time is up, and counts them.
	DeleteExpired(ctx context.Context) (int, error)
	// AddGroup records a process group a running run started, so that the next
	// server can kill it if this one dies first; RemoveGroup forgets it once its
	// processes are gone. Sink adapts both to proctrack.
	AddGroup(ctx context.Context, id string, g proctrack.Group) error
	RemoveGroup(ctx context.Context, id string, g proctrack.Group) error
	Close() error
}
