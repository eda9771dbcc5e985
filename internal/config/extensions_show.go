package config

import (
	"maps"
	"slices"
	"strconv"
)

// showExtensions writes [mcp_servers.*], [skills] and the hooks for config show.
// Values of env and headers whose names look secret are masked.
func (s *shower) showExtensions() {
	c := s.c
	for _, m := range c.MCPServers {
		s.table("mcp_servers." + m.Name)
		k := "mcp_servers." + m.Name + "."
		if m.Command != "" {
			s.kv("command", k+"command", m.Command)
			s.kv("args", k+"args", m.Args)
		} else {
			s.kv("url", k+"url", m.URL)
		}
		for _, name := range slices.Sorted(maps.Keys(m.Env)) {
			s.kv("env."+strconv.Quote(name), k+"env", maskIfSecret(name, m.Env[name]))
		}
		for _, name := range slices.Sorted(maps.Keys(m.Headers)) {
			s.kv("headers."+strconv.Quote(name), k+"headers", maskIfSecret(name, m.Headers[name]))
		}
		for _, f := range []struct {
			name string
			v    any
			set  bool
		}{
			{"cwd", m.Cwd, m.Cwd != ""}, {"bearer_token_env", m.BearerTokenEnv, m.BearerTokenEnv != ""},
			{"enabled_tools", m.EnabledTools, m.EnabledTools != nil}, {"disabled_tools", m.DisabledTools, m.DisabledTools != nil},
			{"startup_timeout", m.StartupTimeout.String(), true}, {"tool_timeout", m.ToolTimeout.String(), true},
			{"enabled", !m.Disabled, true}, {"sampling", m.Sampling, m.Sampling != ""},
		} {
			if f.set {
				s.kv(f.name, k+f.name, f.v)
			}
		}
	}
	if c.Skills.Paths != nil || c.Skills.Enabled != nil || c.Skills.Disabled != nil {
		s.table("skills")
		s.kv("paths", "skills.paths", c.Skills.Paths)
		s.kv("enabled", "skills.enabled", c.Skills.Enabled)
		s.kv("disabled", "skills.disabled", c.Skills.Disabled)
	}
	for _, h := range c.Hooks {
		s.printf("\n[[hooks.%s]]  # from %s\n", h.Event, h.Source)
		s.printf("command = %s\n", strconv.Quote(h.Command))
		if h.Tools != nil {
			s.printf("tools = %s\n", tomlValue(h.Tools))
		}
		s.printf("timeout = %s\n", strconv.Quote(h.Timeout.String()))
		if h.FailClosed {
			s.printf("on_failure = \"deny\"\n")
		}
	}
}
