// Package sandbox runs the processes tools start (bash commands, ! commands, hooks,
// MCP stdio servers and CLI agents where configured) under the operating system's
// own confinement, so that a command the classifier misjudged still cannot write
// outside the workspace, read the user's secrets or outlive the agent.
//
// On Linux a command runs under Landlock (files, TCP), a seccomp filter (other
// sockets), a private mount namespace where one can be made (control files kept
// read-only) and a guardian process that kills the command's whole tree when the
// call is stopped or the agent dies. Bubblewrap is the alternative backend where it
// is installed. Where the kernel offers neither, Available says why, and callers
// fail closed: every command asks.
package sandbox

import (
	"fmt"
	"strings"
)

// Mode is how much a sandboxed command may change.
type Mode string

const (
	// ReadOnly: the whole file system readable but the secrets, writes only to the
	// private temporary directory, no network unless configured. Commands the
	// classifier lets run unasked, the plan profile and sub-agents run here.
	ReadOnly Mode = "read-only"
	// WorkspaceWrite: writes to the workspace and the private temporary directory;
	// control files stay read-only. Approved commands and the accept-edits and
	// auto-approve profiles run here.
	WorkspaceWrite Mode = "workspace-write"
	// Off runs commands as they are. Only an explicit --sandbox off or [sandbox]
	// mode = "off" chooses it, and every face says so.
	Off Mode = "off"
)

// ParseMode reads a mode from a flag or the configuration.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case ReadOnly, WorkspaceWrite, Off:
		return m, nil
	case "":
		return "", fmt.Errorf("sandbox mode is empty: want read-only, workspace-write or off")
	}
	return "", fmt.Errorf("sandbox mode %q: want read-only, workspace-write or off", s)
}

// Stricter returns the stricter of two modes: read-only over workspace-write over off.
func Stricter(a, b Mode) Mode {
	rank := map[Mode]int{Off: 0, WorkspaceWrite: 1, ReadOnly: 2}
	if rank[a] >= rank[b] {
		return a
	}
	return b
}

// Policy says what one command may do.
type Policy struct {
	Mode Mode
	// WorkDir is the workspace, writable in WorkspaceWrite.
	WorkDir string
	// TempDir is the private temporary directory, writable in every mode; TMPDIR
	// points there.
	TempDir string
	// Writable are more folders writable in WorkspaceWrite ([sandbox] writable).
	Writable []string
	// Secrets are unreadable and unwritable in every mode but Off.
	Secrets []string
	// ControlRoots are folders below WorkDir that hold control files of their
	// own (a nested repository, a subproject's config): kept read-only as the
	// top level's are.
	ControlRoots []string
	// Network lets the command open sockets other than Unix ones.
	Network bool
	// Backend chooses the mechanism: "" picks the best available.
	Backend Backend
}

// Backend is a confinement mechanism.
type Backend string

const (
	BackendAuto       Backend = ""
	BackendLandlock   Backend = "landlock"
	BackendBubblewrap Backend = "bubblewrap"
	BackendSeatbelt   Backend = "seatbelt" // macOS sandbox-exec
)
