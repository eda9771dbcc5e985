// Package tui is albert-code's interactive terminal face (Bubble Tea v2): it
// renders the agent's events as a conversation, asks the user about tool calls
// and questions, and sends prompts and slash commands to a chat session. Like
// every face it holds no agent logic: a Conversation does the work.
package tui

import (
	"context"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/chat"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/profile"
	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/session"
	"github.com/etalab-ia/albert-code/internal/skill"
	"github.com/etalab-ia/albert-code/internal/slash"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
	"github.com/etalab-ia/albert-code/internal/tui/dialog"
	"github.com/etalab-ia/albert-code/internal/tui/input"
)

// Conversation is what the UI drives: *chat.Session.
type Conversation interface {
	Prompt(ctx context.Context, text string, emit func(agent.Event)) agent.Result
	Compact(ctx context.Context, instructions string, emit func(agent.Event)) error
	Cancel()
	Clear() error
	Close()
	ID() string
	Title() string
	Model() string
	Profile() string
	Models() []config.Model
	Profiles() ([]profile.Profile, error)
	SetModel(name string) error
	SetProfile(name string) error
	NextProfile() (string, error)
	Stats() chat.Stats
	History() []llm.Message
	ListSessions() ([]session.Meta, error)
	Warnings() []string
	// Skills are the skills the user may run as /skill-name; RunSkill runs one.
	Skills() []skill.Skill
	RunSkill(ctx context.Context, name, request string, emit func(agent.Event)) agent.Result
}

var _ Conversation = (*chat.Session)(nil)

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
	Open func(OpenRequest) (Conversation, error)
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
