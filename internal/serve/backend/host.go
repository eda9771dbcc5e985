package backend

import "time"

// Host is how the server runs a CLI agent's process: set by the runner from its
// options on every request; a backend that runs in-process ignores it.
type Host struct {
	// Timeout and IdleTimeout are the defaults for requests without their own.
	Timeout, IdleTimeout time.Duration
	// Grace is how long a stopped agent gets between SIGTERM and SIGKILL.
	Grace time.Duration
	// StdoutLimit and StderrLimit cap the captured streams (supervisor defaults if zero).
	StdoutLimit, StderrLimit int
	// BaseEnv is the agent's environment before the adapter's additions; nil means
	// the server's.
	BaseEnv []string
	// TempParent holds each run's private TempDir; empty means the system's.
	TempParent string
	// Sandbox is the sandbox.Mode that confines the agent ("" or "off": the guardian
	// alone, its tree still stopped with the run and dying with serve); a string, so
	// that the contract does not pull in the sandbox's cgo. Writable are folders it
	// may write besides its workspace (its own state).
	Sandbox  string
	Writable []string
}
