// Package profile defines agent profiles: named bundles of tool rules, permissions,
// prompt additions and middleware switches that change how the agent behaves (plan,
// accept-edits, a project's own reviewer...). It loads the built-ins and the users'
// TOML files and resolves `extends` and overrides into one flat Profile.
package profile

import (
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// Profile is a resolved profile: every extends and override already applied.
type Profile struct {
	Name        string
	Description string
	// ReadOnly marks a profile that must change nothing. Without AllowedTools it keeps
	// only tools whose tool.Info.ReadOnly is set; with AllowedTools the list is taken
	// as the author's vetted read-only set (task and web_fetch only read, yet run code
	// or reach the network, so they are not flagged ReadOnly themselves).
	ReadOnly bool
	// AutoApprove runs every allowed tool without asking.
	AutoApprove bool
	// AllowedTools, when not empty, is the only tools kept; DisabledTools removes tools.
	// Both hold names, globs or re: patterns (tool.ParseNamePattern).
	AllowedTools  []string
	DisabledTools []string
	// Permissions override [tools.<name>] permission per tool.
	Permissions map[string]config.Permission
	// SystemPrompt is appended to the base system prompt.
	SystemPrompt string
	Middleware   Middleware
	// Model, when set, is used instead of the configured model.
	Model string
	// Subagent profiles are run by the task tool, not offered to the user.
	Subagent bool
	// Sources lists where the profile was defined, lowest first ("built-in", file paths).
	Sources []string
}

// Middleware switches the per-turn helpers.
type Middleware struct {
	// TodoFocus reminds the model of unfinished todos.
	TodoFocus bool
	// ContextWarning warns once when the context fills up.
	ContextWarning bool
	// ReadOnlyGuard tells the model, on entering and leaving, that it must not change files.
	ReadOnlyGuard bool
}

// AllowsTool reports whether the profile keeps the tool called name (readOnly says
// whether that tool changes nothing).
func (p Profile) AllowsTool(name string, readOnly bool) bool {
	if len(p.AllowedTools) > 0 {
		if !tool.MatchAny(mustPatterns(p.AllowedTools), name) {
			return false
		}
	} else if p.ReadOnly && !readOnly {
		return false
	}
	return !tool.MatchAny(mustPatterns(p.DisabledTools), name)
}

// mustPatterns compiles patterns already validated at load.
func mustPatterns(ps []string) []tool.NamePattern {
	out, err := tool.ParseNamePatterns(ps)
	if err != nil {
		panic("profile: pattern not validated at load: " + err.Error())
	}
	return out
}

func (p Profile) clone() Profile {
	q := p
	q.AllowedTools = append([]string(nil), p.AllowedTools...)
	q.DisabledTools = append([]string(nil), p.DisabledTools...)
	q.Sources = append([]string(nil), p.Sources...)
	q.Permissions = make(map[string]config.Permission, len(p.Permissions))
	for k, v := range p.Permissions {
		q.Permissions[k] = v
	}
	return q
}
