package adapter

import (
	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// The names internal/app still takes from here, while its reshape into command
// families is under way; everything else names backend, cli or the agent's package.
type (
	Request = backend.Request
	Result  = backend.Result
	Event   = backend.Event
	Backend = backend.Backend
	Adapter = cli.Adapter
	Modeler = cli.Modeler
	Claude  = claude.Adapter
)

// ErrClaudeAsRoot is claude.ErrAsRoot.
var ErrClaudeAsRoot = claude.ErrAsRoot

// Models is cli.Models.
func Models(a Adapter) []string { return cli.Models(a) }

// ThinkingLevels is cli.ThinkingLevels.
func ThinkingLevels(a Adapter) []string { return cli.ThinkingLevels(a) }
