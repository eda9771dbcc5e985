package adapter

import "github.com/etalab-ia/albert-code/internal/serve/backend"

// The run contract moved to package backend; these names stay for the importers
// not yet re-pointed.
type (
	Request   = backend.Request
	EventMode = backend.EventMode
	Result    = backend.Result
	Record    = backend.Record
	Usage     = backend.Usage
	EventKind = backend.EventKind
	Event     = backend.Event
	ToolUse   = backend.ToolUse
	ErrorKind = backend.ErrorKind
)

const (
	EventsNone = backend.EventsNone
	EventsFull = backend.EventsFull

	EventDelta      = backend.EventDelta
	EventSession    = backend.EventSession
	EventUsage      = backend.EventUsage
	EventReasoning  = backend.EventReasoning
	EventToolCall   = backend.EventToolCall
	EventToolResult = backend.EventToolResult
	EventError      = backend.EventError
	EventStop       = backend.EventStop

	ErrorRateLimit   = backend.ErrorRateLimit
	ErrorAuth        = backend.ErrorAuth
	ErrorProvider    = backend.ErrorProvider
	ErrorUnreachable = backend.ErrorUnreachable
	ErrorAgent       = backend.ErrorAgent
	ErrorCancelled   = backend.ErrorCancelled
	ErrorTimeout     = backend.ErrorTimeout
	ErrorIdle        = backend.ErrorIdle
)
