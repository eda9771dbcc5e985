package agentenv

import (
	"fmt"

	"github.com/etalab-ia/albert-code/internal/profile"
)

// Profiles loads the profile catalog with the same trust rule as Load, so a face can
// list the profiles a user may switch to (Shift+Tab, ACP modes).
func (e *Env) Profiles() (*profile.Catalog, error) {
	trusted := e.trustedDir
	if trusted == nil {
		// An Env not made by Load reads no project profiles: profile.Load would take
		// a nil rule as "trust every project".
		trusted = func(string) bool { return false }
	}
	return profile.Load(profile.Options{Home: e.Config.Home, WorkDir: e.WorkDir, Trusted: trusted})
}

// WithProfile returns a copy of e that runs the profile called name. e is unchanged,
// so a face can switch while keeping the previous Env if the new run fails.
func (e *Env) WithProfile(name string) (*Env, error) {
	cat, err := e.Profiles()
	if err != nil {
		return nil, err
	}
	p, err := cat.Get(name)
	if err != nil {
		return nil, err
	}
	if p.Subagent {
		return nil, fmt.Errorf("profile %q is for sub-agents (the task tool); pick one of %v", name, cat.Cycle())
	}
	c := *e
	c.Profile = p
	return &c, nil
}

// WithModel returns a copy of e that runs the model called name (a name, alias or
// wire name), whatever the profile or the configuration asks for.
func (e *Env) WithModel(name string) (*Env, error) {
	m, err := e.Config.Model(name)
	if err != nil {
		return nil, err
	}
	c := *e
	c.model = m.Name
	return &c, nil
}
