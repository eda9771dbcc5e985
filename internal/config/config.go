package config

import (
	"fmt"
	"sort"
	"strings"
)

// Config is the merged configuration. Read it; change it only through Load.
type Config struct {
	// ModelName is the active model's name (key `model`).
	ModelName string
	// Agent is the profile used when none is chosen on the command line.
	Agent         string
	Providers     []Provider
	Models        []Model
	EnabledTools  []string
	DisabledTools []string
	Tools         map[string]ToolConfig
	Compaction    Compaction
	// ContextWarning is the fraction of the window at which the user is warned once.
	ContextWarning float64
	Session        Session
	WebFetch       WebFetch
	WebSearch      WebSearch
	Bash           Bash
	Graph          Graph
	RateLimits     RateLimits
	// MCPServers are the [mcp_servers.*] tables, in the order the layers add them.
	MCPServers []MCPServer
	// Hooks are the [[hooks.*]] entries of every layer, lowest layer first.
	Hooks  []Hook
	Skills Skills
	// Sandbox is the [sandbox] table (global configuration only).
	Sandbox Sandbox
	// Permissions is the [permissions] table (global configuration only).
	Permissions Permissions
	// AgentLoop holds auto_continue, project_context and system_prompt_id.
	AgentLoop AgentLoop
	// Notifications is the [notifications] table; Update holds update_check and update_feed.
	Notifications Notifications
	Update        UpdateCheck

	// Home is the application directory (sessions, agents/, .env, trusted_folders.toml).
	Home string
	// Files lists the config files read, lowest priority first.
	Files []string
	// Skipped lists project files present but not read because the folder is not trusted.
	Skipped []string
	// Notices say what could not be read and was left out; the run goes on without it.
	Notices []string
	// Ignored lists settings read but not applied because of where they were written.
	Ignored []string

	sources    map[string]Source
	globalFile string  // the user's own config file: only it may set [permissions]
	opts       Options // what Load was given, for Reload and the project file's place
	secrets    *Secrets

	// listModels asks the servers for names no configured model has; nil asks none.
	listModels ListModels
	// baseURLTarget is the provider --base-url or ALBERT_CODE_BASE_URL points elsewhere.
	baseURLTarget string
}

// Source returns where the value at a dotted key came from, such as "model",
// "providers.albert.base_url" or "tools.bash.permission".
func (c *Config) Source(key string) (Source, bool) {
	s, ok := c.sources[key]
	return s, ok
}

// Model finds a model by name, wire name or alias: exact case first, then ignoring
// case, so "Qwen" finds "qwen" but an exact match always wins. A name no configured
// model has is looked up in the servers' model lists.
func (c *Config) Model(name string) (Model, error) {
	for _, fold := range []bool{false, true} {
		eq := func(a string) bool {
			if fold {
				return strings.EqualFold(a, name)
			}
			return a == name
		}
		for _, m := range c.Models {
			if eq(m.Name) || eq(m.WireName) || anyOf(m.Aliases, eq) {
				return m, nil
			}
		}
	}
	m, hint, ok := c.serverModel(name)
	if ok {
		return m, nil
	}
	if to, ok := MigratedModel(name); ok && to != name {
		return c.Model(to)
	}
	return Model{}, fmt.Errorf("unknown model %q: known models are %s%s", name, strings.Join(c.modelNames(), ", "), hint)
}

// ActiveModel returns the model named by ModelName; Load has already checked it exists.
func (c *Config) ActiveModel() (Model, error) { return c.Model(c.ModelName) }

// Provider finds a provider by exact name.
func (c *Config) Provider(name string) (Provider, error) {
	for _, p := range c.Providers {
		if p.Name == name {
			return p, nil
		}
	}
	return Provider{}, fmt.Errorf("unknown provider %q: known providers are %s", name, strings.Join(c.providerNames(), ", "))
}

// Tool returns the [tools.<name>] settings; the zero value when there are none.
func (c *Config) Tool(name string) ToolConfig { return c.Tools[name] }

func (c *Config) modelNames() []string {
	names := make([]string, 0, len(c.Models))
	for _, m := range c.Models {
		names = append(names, m.Name)
	}
	sort.Strings(names)
	return names
}

func (c *Config) providerNames() []string {
	names := make([]string, 0, len(c.Providers))
	for _, p := range c.Providers {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return names
}

func anyOf(xs []string, f func(string) bool) bool {
	for _, x := range xs {
		if f(x) {
			return true
		}
	}
	return false
}
