package profile

import (
	"fmt"
	"maps"
	"slices"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// file is the schema of <name>.toml. Pointers tell "not set" from "set to zero", so a
// file overrides only the fields it writes.
type file struct {
	Description   *string           `toml:"description"`
	Extends       *string           `toml:"extends"`
	ReadOnly      *bool             `toml:"read_only"`
	AutoApprove   *bool             `toml:"auto_approve"`
	AllowedTools  *[]string         `toml:"allowed_tools"`
	DisabledTools *[]string         `toml:"disabled_tools"`
	Permissions   map[string]string `toml:"permissions"`
	SystemPrompt  *string           `toml:"system_prompt"`
	Model         *string           `toml:"model"`
	Subagent      *bool             `toml:"subagent"`
	Middleware    *struct {
		TodoFocus      *bool `toml:"todo_focus"`
		ContextWarning *bool `toml:"context_warning"`
		ReadOnlyGuard  *bool `toml:"read_only_guard"`
	} `toml:"middleware"`
}

// definition is one file defining a profile.
type definition struct {
	path  string
	f     file
	lines tomlfile.Lines
}

func (d definition) errAt(key, msg, suggestion string) error {
	return &tomlfile.Error{Where: d.path, Line: d.lines.Line(key), Key: key, Msg: msg, Suggestion: suggestion}
}

// check validates values the decoder cannot: patterns and permission names.
func (d definition) check() error {
	for key, ps := range map[string]*[]string{"allowed_tools": d.f.AllowedTools, "disabled_tools": d.f.DisabledTools} {
		if ps == nil {
			continue
		}
		if _, err := tool.ParseNamePatterns(*ps); err != nil {
			return d.errAt(key, err.Error(), "")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(d.f.Permissions)) {
		v := d.f.Permissions[name]
		if _, err := config.ParsePermission(v); err != nil {
			return d.errAt("permissions."+name, err.Error(), tomlfile.Suggest(v, []string{"always", "ask", "never"}))
		}
	}
	return nil
}

// applyTo overrides p with the fields d sets.
func (d definition) applyTo(p *Profile) {
	f := d.f
	setS := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	setB := func(dst *bool, src *bool) {
		if src != nil {
			*dst = *src
		}
	}
	setS(&p.Description, f.Description)
	setS(&p.SystemPrompt, f.SystemPrompt)
	setS(&p.Model, f.Model)
	setB(&p.ReadOnly, f.ReadOnly)
	setB(&p.AutoApprove, f.AutoApprove)
	setB(&p.Subagent, f.Subagent)
	if f.AllowedTools != nil {
		p.AllowedTools = slices.Clone(*f.AllowedTools)
	}
	if f.DisabledTools != nil {
		p.DisabledTools = slices.Clone(*f.DisabledTools)
	}
	for k, v := range f.Permissions {
		p.Permissions[k] = config.Permission(v)
	}
	if m := f.Middleware; m != nil {
		setB(&p.Middleware.TodoFocus, m.TodoFocus)
		setB(&p.Middleware.ContextWarning, m.ContextWarning)
		setB(&p.Middleware.ReadOnlyGuard, m.ReadOnlyGuard)
	}
	p.Sources = append(p.Sources, d.path)
}

func unknownProfile(name string, known []string) error {
	return fmt.Errorf("unknown profile %q: known profiles are %v", name, known)
}
