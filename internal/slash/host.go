package slash

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/agent"
)

// Host is the face a command runs in: it can show text to the user. What else a
// command needs (clearing the conversation, switching model...) it asks for with a
// type assertion on one of the small interfaces below, so a face implements only
// what it offers and a missing one is reported, not a crash.
type Host interface {
	Face() Face
	// Show displays Markdown to the user.
	Show(markdown string)
}

// ErrUnavailable is wrapped by a command the host cannot run.
var ErrUnavailable = errors.New("not available here")

func unavailable(name string) error {
	return fmt.Errorf("/%s: %w", name, ErrUnavailable)
}

// Quitter ends the face (/exit).
type Quitter interface{ Quit() }

// Clearer starts a fresh conversation (/clear).
type Clearer interface {
	Clear(ctx context.Context) error
}

// Compacter summarises the conversation (/compact).
type Compacter interface {
	Compact(ctx context.Context, instructions string) error
}

// Reloader re-reads the configuration, keeping the conversation (/reload).
type Reloader interface {
	Reload(ctx context.Context) error
}

// Choice is one entry of a model or profile list.
type Choice struct {
	Name        string
	Description string
	Current     bool
}

// ModelSwitcher lists and switches models (/model NAME).
type ModelSwitcher interface {
	Models() []Choice
	SetModel(ctx context.Context, name string) error
}

// ProfileSwitcher lists and switches agent profiles (/agent NAME).
type ProfileSwitcher interface {
	Profiles() []Choice
	SetProfile(ctx context.Context, name string) error
}

// Picker opens an interactive list in faces that have one: /model, /agent and
// /resume without an argument. what is "model", "agent" or "session".
type Picker interface {
	Pick(what string)
}

// Resumer opens a saved session by ID or unique prefix (/resume ID).
type Resumer interface {
	Resume(ctx context.Context, id string) error
}

// Status is what /status and /cost report.
type Status struct {
	SessionID     string
	SessionDir    string
	Model         string
	Profile       string
	ContextWindow int
	Stats         agent.Stats
}

// StatusReporter reports the session's totals (/status, /cost).
type StatusReporter interface {
	Status() Status
}

// ConfigShower returns the merged configuration as text (/config).
type ConfigShower interface {
	ConfigText() (string, error)
}

// Copier copies the last answer to the clipboard (/copy).
type Copier interface {
	CopyLastAnswer() error
}

// LimitReporter shows the account's usage against its daily quota (/quota) and the
// active model's rolling rate-limit window (/rpm). Reading the quota asks the server,
// so a face may show the answer when it comes rather than wait for it.
type LimitReporter interface {
	ShowQuota(ctx context.Context) error
	ShowRPM(ctx context.Context) error
}

// Preformatted puts text laid out in columns (the quota table, the /rpm gauges) in a
// Markdown code block, so a face shows it as written.
func Preformatted(text string) string {
	return "```text\n" + strings.TrimRight(text, "\n") + "\n```"
}

// KeyHelper adds the face's key bindings to /help.
type KeyHelper interface {
	KeyHelp() string
}
