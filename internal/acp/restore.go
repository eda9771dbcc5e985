package acp

import (
	"fmt"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	store "github.com/etalab-ia/albert-code/internal/session"
)

// withSavedSettings returns env running the profile and model the saved session
// called ref last ran with, rather than the configured defaults, and warnings for
// those that no longer exist (the defaults are kept for them).
func withSavedSettings(env *agentenv.Env, ref string) (*agentenv.Env, []string) {
	if !env.Config.Session.Enabled {
		return env, nil
	}
	meta, ok := savedMeta(env.SessionStore(), ref)
	if !ok {
		return env, nil // session/load reports the unknown session when it opens it
	}
	var warnings []string
	if meta.Profile != "" && meta.Profile != env.Profile.Name {
		if e, err := env.WithProfile(meta.Profile); err != nil {
			warnings = append(warnings, fmt.Sprintf("the session's profile %q cannot be restored (%v); it goes on with %q", meta.Profile, err, env.Profile.Name))
		} else {
			env = e
		}
	}
	if meta.Model == "" {
		return env, warnings
	}
	// The profile's own model, if any, is the default here: pin the saved model only
	// when it differs, so a later profile switch still brings that profile's model.
	if m, _, err := env.ModelFor(); err == nil && m.Name == meta.Model {
		return env, warnings
	}
	if e, err := env.WithModel(meta.Model); err != nil {
		warnings = append(warnings, fmt.Sprintf("the session's model %q cannot be restored (%v); it goes on with the configured model", meta.Model, err))
	} else {
		env = e
	}
	return env, warnings
}

// savedMeta reads the meta of the session ref names (an id or a unique prefix).
func savedMeta(st *store.Store, ref string) (store.Meta, bool) {
	id, err := st.Resolve(ref)
	if err != nil {
		return store.Meta{}, false
	}
	metas, _ := st.List(store.Filter{SubAgents: true})
	for _, m := range metas {
		if m.ID == id {
			return m, true
		}
	}
	return store.Meta{}, false
}
