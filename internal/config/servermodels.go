package config

import (
	"fmt"
	"strings"
)

// ServerModel is one model an OpenAI-compatible server lists at GET /models.
type ServerModel struct {
	// ID is the server's canonical id, the name sent on the wire.
	ID      string
	Aliases []string
	// ContextWindow is 0 when the server does not say.
	ContextWindow int
}

// ListModels returns the models p's server lists; apiKey is "" for keyless
// servers. The app gives one that answers from a cache when it can, so that
// asking costs a request only when the cache has nothing. With cachedOnly it
// never waits on the server: it answers what is cached, possibly nothing.
type ListModels func(p Provider, apiKey string, cachedOnly bool) ([]ServerModel, error)

// serverModel finds name among the ids and aliases the servers list, asked only
// for a name no configured model has. A configured model with the same wire id
// wins, so its prices, fallback and window still apply. When nothing matches,
// hint says what the servers serve, or why their list is unknown.
func (c *Config) serverModel(name string) (m Model, hint string, ok bool) {
	if c.listModels == nil {
		return Model{}, "", false
	}
	var hints []string
	for _, p := range c.listableProviders() {
		key, _ := c.APIKey(p.Name)
		listed, err := c.listModels(p, key, false)
		if err != nil {
			hints = append(hints, err.Error())
			continue
		}
		if sm, found := findServerModel(listed, name); found {
			for _, cm := range c.Models {
				if cm.Provider == p.Name && cm.WireName == sm.ID {
					return cm, "", true
				}
			}
			return Model{Name: sm.ID, Provider: p.Name, WireName: sm.ID, Aliases: sm.Aliases, ContextWindow: sm.ContextWindow}, "", true
		}
		hints = append(hints, fmt.Sprintf("the %s server serves %s", p.Name, describeServerModels(listed)))
	}
	if len(hints) == 0 {
		return Model{}, "", false
	}
	return Model{}, "; " + strings.Join(hints, "; "), false
}

// ServerModels returns the models the servers list that no configured model
// already stands for, for pickers that offer every model (the ACP selector, the
// TUI's /model). It answers from the cache only: a picker never waits on the
// network, and a list not cached yet shows up the next time.
func (c *Config) ServerModels() []Model {
	var out []Model
	if c.listModels == nil {
		return nil
	}
	for _, p := range c.listableProviders() {
		key, _ := c.APIKey(p.Name)
		listed, err := c.listModels(p, key, true)
		if err != nil {
			continue
		}
	next:
		for _, sm := range listed {
			for _, cm := range c.Models {
				if cm.Provider == p.Name && cm.WireName == sm.ID {
					continue next
				}
			}
			out = append(out, Model{Name: sm.ID, Provider: p.Name, WireName: sm.ID, Aliases: sm.Aliases, ContextWindow: sm.ContextWindow})
		}
	}
	return out
}

// listableProviders are the OpenAI-compatible providers worth asking: those
// whose key is set, and keyless local servers a model of the user's own
// configuration uses or the base URL override points at. Asking a server the
// user never set up (the shipped llama.cpp entry) would only cost a refused
// connection or a 401, and a notice about it.
func (c *Config) listableProviders() []Provider {
	var out []Provider
	for _, p := range c.Providers {
		if p.Kind != KindOpenAICompatible {
			continue
		}
		if p.APIKeyEnv != "" {
			if _, _, ok := c.secrets.Lookup(p.APIKeyEnv); !ok {
				continue
			}
		} else if !c.usesProvider(p.Name) && p.Name != c.baseURLTarget {
			continue
		}
		out = append(out, p)
	}
	return out
}

func (c *Config) usesProvider(name string) bool {
	for _, m := range c.Models {
		if m.Provider == name && c.sources["models."+m.Name+".provider"].Kind != SourceDefault {
			return true
		}
	}
	return false
}

// findServerModel matches an id or alias, exact case first, then ignoring case
// as Albert does.
func findServerModel(models []ServerModel, name string) (ServerModel, bool) {
	for _, fold := range []bool{false, true} {
		eq := func(a string) bool {
			if fold {
				return strings.EqualFold(a, name)
			}
			return a == name
		}
		for _, m := range models {
			if eq(m.ID) || anyOf(m.Aliases, eq) {
				return m, true
			}
		}
	}
	return ServerModel{}, false
}

// describeServerModels lists ids with their aliases: "a (x, y), b".
func describeServerModels(models []ServerModel) string {
	if len(models) == 0 {
		return "no models"
	}
	parts := make([]string, 0, len(models))
	for _, m := range models {
		if len(m.Aliases) > 0 {
			parts = append(parts, m.ID+" ("+strings.Join(m.Aliases, ", ")+")")
		} else {
			parts = append(parts, m.ID)
		}
	}
	return strings.Join(parts, ", ")
}

// baseURLProvider is the provider a base URL override points elsewhere: the active
// model's when a configured model (or the migration table) names it, else the first
// OpenAI-compatible provider worth asking, where a model only the server lists is
// then looked up.
func (c *Config) baseURLProvider() string {
	configuredOnly := *c
	configuredOnly.listModels = nil
	if m, err := configuredOnly.ActiveModel(); err == nil {
		return m.Provider
	}
	if ps := c.listableProviders(); len(ps) > 0 {
		return ps[0].Name
	}
	return ""
}
