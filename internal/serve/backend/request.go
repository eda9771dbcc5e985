package backend

import (
	"encoding/json"
	"time"
)

// Request is one run as the backends see it. The zero value of every field is a
// sensible default; in particular the zero Request starts a fresh session.
type Request struct {
	Prompt string
	// Workspace is the absolute folder the agent runs in.
	Workspace string
	Model     string
	// SystemPrompt replaces the agent's system prompt; AppendSystemPrompt adds to it.
	SystemPrompt       string
	AppendSystemPrompt string
	// JSONSchema asks for a final answer matching this schema; backends whose agent
	// enforces schemas natively pass it on, the others leave it to the caller's checks.
	JSONSchema json.RawMessage
	// Continue resumes the latest session in Workspace; Resume a given session (it
	// wins). With neither, the run starts a fresh session. The API's noContinue is
	// !Continue: the HTTP default is to continue, the library's is not.
	Continue bool
	Resume   string
	// Thinking is a reasoning effort level from the backend's ThinkingLevels.
	Thinking string
	// ToolsAllowlist restricts the agent's own tools; NoTools disables them.
	ToolsAllowlist []string
	NoTools        bool
	// ExtraArgs are appended to the agent's argv, unchecked: for operators, not clients.
	ExtraArgs []string
	// Env is added to the agent's environment last.
	Env map[string]string
	// EventMode full keeps every native record of the run (Result.Records).
	EventMode EventMode
	// StreamTokens asks for token-level deltas where the agent can give them, at the
	// price of more output to parse.
	StreamTokens bool
	// TempDir is a private folder for this run, removed after it; backends may write
	// files there (a schema file for codex). Empty when the runner gives none.
	TempDir string
	// Timeout bounds the run and IdleTimeout the time without output; zero takes
	// the runner's defaults.
	Timeout, IdleTimeout time.Duration
	// Host is set by the runner: how a CLI agent's process runs. Never serialized:
	// it holds the server's environment.
	Host Host `json:"-"`
}

// EventMode says which native records a run keeps.
type EventMode string

const (
	EventsNone EventMode = "none"
	EventsFull EventMode = "full"
)
