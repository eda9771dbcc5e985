package config

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Show writes the merged configuration as TOML-like text, each value followed by
// "# from <source>". API keys are never printed: each provider says whether its key
// variable is set and where, with at most the key's last four characters.
func Show(w io.Writer, c *Config) error {
	s := &shower{c: c}
	s.printf("# albert-code configuration, merged (lowest first: default, files, env, flags)\n")
	s.printf("# home: %s\n", c.Home)
	for _, f := range c.Files {
		s.printf("# read: %s\n", f)
	}
	for _, f := range c.Skipped {
		s.printf("# skipped (folder not trusted): %s\n", f)
	}
	for _, f := range c.Ignored {
		s.printf("# ignored: %s\n", f)
	}
	s.printf("\n")
	s.kv("model", "model", c.ModelName)
	s.kv("agent", "agent", c.Agent)
	s.kv("context_warning", "context_warning", c.ContextWarning)
	s.kv("auto_continue", "auto_continue", c.AgentLoop.AutoContinue)
	s.kv("project_context", "project_context", c.AgentLoop.ProjectContext)
	s.kv("system_prompt_id", "system_prompt_id", c.AgentLoop.SystemPromptID)
	s.kv("update_check", "update_check", c.Update.Enabled)
	s.kv("update_feed", "update_feed", c.Update.Feed)
	s.kv("enabled_tools", "enabled_tools", c.EnabledTools)
	s.kv("disabled_tools", "disabled_tools", c.DisabledTools)

	s.table("compaction")
	s.kv("threshold", "compaction.threshold", c.Compaction.Threshold)
	s.kv("keep_recent_turns", "compaction.keep_recent_turns", c.Compaction.KeepRecentTurns)
	s.table("session")
	s.kv("dir", "session.dir", c.Session.Dir)
	s.kv("enabled", "session.enabled", c.Session.Enabled)
	s.table("web_fetch")
	s.kv("allow_private", "web_fetch.allow_private", c.WebFetch.AllowPrivate)
	s.kv("max_bytes", "web_fetch.max_bytes", c.WebFetch.MaxBytes)
	s.table("web_search")
	s.kv("backend", "web_search.backend", c.WebSearch.Backend)
	s.kv("base_url", "web_search.base_url", c.WebSearch.BaseURL)
	s.table("graph")
	s.kv("embeddings_model", "graph.embeddings_model", c.Graph.EmbeddingsModel)
	s.kv("embeddings_provider", "graph.embeddings_provider", c.Graph.EmbeddingsProvider)
	s.table("notifications")
	s.kv("enabled", "notifications.enabled", c.Notifications.Enabled)
	s.kv("method", "notifications.method", c.Notifications.Method)
	s.kv("sequence", "notifications.sequence", c.Notifications.Sequence)
	s.kv("after", "notifications.after", c.Notifications.After.String())
	s.table("bash")
	s.kv("timeout", "bash.timeout", c.Bash.Timeout.String())
	s.kv("max_output_bytes", "bash.max_output_bytes", c.Bash.MaxOutputBytes)
	s.table("sandbox")
	mode := c.Sandbox.Mode
	if mode == "" {
		mode = "on"
	}
	s.kv("mode", "sandbox.mode", mode)
	s.kv("backend", "sandbox.backend", c.Sandbox.Backend)
	s.kv("network", "sandbox.network", c.Sandbox.Network)
	s.kv("writable", "sandbox.writable", c.Sandbox.Writable)
	s.kv("deny_read", "sandbox.deny_read", c.Sandbox.DenyRead)
	s.kv("env_passthrough", "sandbox.env_passthrough", c.Sandbox.EnvPassthrough)

	for _, p := range c.Providers {
		s.printf("\n[[providers]]\n")
		k := "providers." + p.Name + "."
		s.kv("name", k+"name", p.Name)
		s.kv("kind", k+"kind", string(p.Kind))
		s.kv("base_url", k+"base_url", p.BaseURL)
		if p.APIKeyEnv != "" {
			s.kv("api_key_env", k+"api_key_env", p.APIKeyEnv)
			s.printf("# %s: %s\n", p.APIKeyEnv, c.keyStatus(p.APIKeyEnv))
		}
		for _, h := range slices.Sorted(maps.Keys(p.Headers)) {
			s.kv("headers."+strconv.Quote(h), k+"headers."+h, maskIfSecret(h, p.Headers[h]))
		}
		s.kv("xml_tool_calls", k+"xml_tool_calls", p.XMLToolCalls)
		if p.Timeout > 0 {
			s.kv("timeout", k+"timeout", p.Timeout.String())
		}
	}
	for _, m := range c.Models {
		s.printf("\n[[models]]\n")
		k := "models." + m.Name + "."
		s.kv("name", k+"name", m.Name)
		s.kv("provider", k+"provider", m.Provider)
		s.kv("wire_name", k+"wire_name", m.WireName)
		if len(m.Aliases) > 0 {
			s.kv("aliases", k+"aliases", m.Aliases)
		}
		s.kv("context_window", k+"context_window", m.ContextWindow)
		s.kv("input_price", k+"input_price", m.InputPrice)
		s.kv("output_price", k+"output_price", m.OutputPrice)
		if m.FallbackModel != "" {
			s.kv("fallback_model", k+"fallback_model", m.FallbackModel)
		}
		if m.Temperature != nil {
			s.kv("temperature", k+"temperature", *m.Temperature)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Tools)) {
		t := c.Tools[name]
		s.table("tools." + name)
		k := "tools." + name + "."
		if t.Permission != "" {
			s.kv("permission", k+"permission", string(t.Permission))
		}
		if t.Allow != nil {
			s.kv("allow", k+"allow", t.Allow)
		}
		if t.Deny != nil {
			s.kv("deny", k+"deny", t.Deny)
		}
		for _, opt := range slices.Sorted(maps.Keys(t.Options)) {
			v := t.Options[opt]
			if looksSecret(opt) {
				v = "<masked>"
			}
			s.kv(opt, k+opt, v)
		}
	}
	s.showExtensions()
	_, err := io.WriteString(w, s.buf.String())
	return err
}

type shower struct {
	c   *Config
	buf strings.Builder
}

func (s *shower) printf(format string, args ...any) { fmt.Fprintf(&s.buf, format, args...) }

func (s *shower) table(name string) { s.printf("\n[%s]\n", name) }

func (s *shower) kv(name, key string, v any) {
	src, ok := s.c.sources[key]
	from := "default"
	if ok {
		from = src.String()
	}
	s.printf("%s = %s  # from %s\n", name, tomlValue(v), from)
}

// keyStatus says whether a key is set without revealing it.
func (c *Config) keyStatus(env string) string {
	if c.secrets == nil {
		return "not set"
	}
	v, from, ok := c.secrets.Lookup(env)
	if !ok {
		return "not set (set it in the environment or in " + c.secrets.envPath + ")"
	}
	if from == "env" {
		from = "environment"
	}
	return "set in " + from + " (" + maskKey(v) + ")"
}

// maskKey shows the last four characters of keys long enough that four characters
// do not weaken them (16: judgement; real API keys are 32+), else nothing.
func maskKey(v string) string {
	if len(v) < 16 {
		return "set"
	}
	return "…" + v[len(v)-4:]
}

func looksSecret(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"auth", "key", "token", "secret", "cookie", "password"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

func maskIfSecret(name, v string) string {
	if looksSecret(name) {
		return "<masked>"
	}
	return v
}

func tomlValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	case []string:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = strconv.Quote(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = tomlValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	default:
		return fmt.Sprintf("%v", x)
	}
}
