// Package tui is albert-code's interactive terminal face (Bubble Tea v2): it
// renders the agent's events as a conversation, asks the user about tool calls
// and questions, and sends prompts and slash commands to a chat session. Like
// every face it holds no agent logic: a chat.Session does the work.
package tui

import (
	"context"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/chat"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/slash"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
	"github.com/etalab-ia/albert-code/internal/tui/dialog"
	"github.com/etalab-ia/albert-code/internal/tui/input"
)

// Conversation is the chat session the UI drives and what the UI shows beside it.
// The face that opens it fills the fields; a bare session is a trusted one that
// owns nothing else.
type Conversation struct {
	*chat.Session
	// Untrusted marks a folder that was not trusted when the conversation opened:
	// the footer says so and the UI offers /trust.
	Untrusted bool
	// Notices are shown once after the session's own warnings (the start-up quota
	// lines).
	Notices []string
	// Release, when set, runs after the session closes: it frees what was opened
	// with it (the Env and the MCP servers it started).
	Release func()
}

// Close closes the session, then releases what was opened with it.
func (c *Conversation) Close() {
	c.Session.Close()
	if c.Release != nil {
		c.Release()
	}
}

// Warnings are what opening the session had to repair, then the notices.
func (c *Conversation) Warnings() []string {
	return append(c.Session.Warnings(), c.Notices...)
}

// OpenRequest says which conversation to open and how it reaches the user.
type OpenRequest struct {
	Continue bool
	Resume   string
	Approver agent.Approver
	Asker    builtin.Asker
}

// Setup is the first-run screen's data and where its answer goes.
type Setup struct {
	Providers []dialog.ProviderOption
	Current   string
	// Save stores the choice; it runs off the UI loop.
	Save func(p dialog.ProviderOption, model, key string) error
}

// Trust asks whether to trust the working directory before anything is loaded.
type Trust struct {
	Dir string
	// Decide records the answer: trust or not, and whether to remember it.
	Decide func(trust, remember bool) error
}

// Options configure the UI.
type Options struct {
	// Color false draws without colour (NO_COLOR, dumb terminals).
	Color   bool
	WorkDir string
	// Sandbox confines "!" commands as approved ones (workspace-write); nil runs
	// them with the environment scrubbed only.
	Sandbox *sandbox.Sandbox
	History *input.History
	// TrustFolder trusts WorkDir for good (/trust, offered after "Not now" and where
	// a call is refused for want of trust); nil offers no /trust.
	TrustFolder func() error
	// Registry holds the slash commands; nil uses slash.Default().
	Registry *slash.Registry
	// Open opens a conversation; it runs off the UI loop (it reads the disk).
	Open func(OpenRequest) (*Conversation, error)
	// ConfigText is what /config shows.
	ConfigText func() (string, error)

	InitialPrompt string
	Continue      bool
	Resume        string
	// PickSession opens the session picker once the conversation is open
	// (--resume without an ID).
	PickSession bool
	// Setup is offered when the API key is missing, and first when ShowSetup is set.
	Setup     *Setup
	ShowSetup bool
	// Trust, when set, asks the trusted-folder question first.
	Trust *Trust
	// Notify sends desktop notifications while the terminal has no focus; nil sends none.
	Notify *Notify
	// UpdateNotice runs in the background at start; a non-empty answer is shown once.
	UpdateNotice func(ctx context.Context) string
}
