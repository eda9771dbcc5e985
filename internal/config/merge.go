package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
)

// origin names the source of the value at a raw key path ("providers[1].base_url").
// A file answers with its path and the key's line; the environment and the flags
// answer with the variable or flag that carries that key.
type origin func(raw string) Source

func fileOrigin(path string, lines tomlfile.Lines) origin {
	return func(raw string) Source { return Source{Kind: SourceFile, Name: path, Line: lines.Line(raw)} }
}

func constOrigin(s Source) origin { return func(string) Source { return s } }

// fieldError reports a bad value at raw (semantic key key) in the words of its source.
func fieldError(o origin, raw, key, msg, suggestion string) error {
	s := o(raw)
	e := &tomlfile.Error{Key: key, Msg: msg, Suggestion: suggestion}
	// Some checks pass what to do rather than a near value: a sentence is a
	// hint, never a "did you mean".
	if strings.ContainsRune(suggestion, ' ') {
		e.Suggestion, e.Hint = "", suggestion
	}
	if s.Kind == SourceFile {
		e.Where, e.Line = s.Name, s.Line
	} else {
		e.Where = s.String()
	}
	return e
}

// apply merges l onto c. Scalars override, lists replace, tables merge key by key,
// providers and models merge by name. Every value set is recorded with its source.
// The steps run in the order below, so the first bad value in it is the one reported.
func (c *Config) apply(l *layer, o origin) error {
	cp, se, wf, ws, g, b := orZero(l.Compaction), orZero(l.Session), orZero(l.WebFetch), orZero(l.WebSearch), orZero(l.Graph), orZero(l.Bash)
	return c.runSteps(o,
		key("model", l.Model, &c.ModelName, keep),
		key("agent", l.Agent, &c.Agent, keep),
		func(c *Config, o origin) error { return c.applyEntries(l, o) },
		key("enabled_tools", l.EnabledTools, &c.EnabledTools, toolPatterns),
		key("disabled_tools", l.DisabledTools, &c.DisabledTools, toolPatterns),
		func(c *Config, o origin) error { return c.applyTools(l.Tools, o) },
		key("context_warning", l.ContextWarning, &c.ContextWarning, fractionCheck(true)),
		func(c *Config, o origin) error { return c.applyExtensions(l, o) },
		func(c *Config, o origin) error { return c.applyRateLimits(l.RateLimits, o) },
		key("auto_fallback_enabled", l.AutoFallback, &c.RateLimits.NoAutoFallback, not),
		func(c *Config, o origin) error { return c.applyAgentLoop(&l.agentLoopLayer, o) },
		func(c *Config, o origin) error { return c.applyNotifications(l.Notifications, &l.updateLayer, o) },
		key("compaction.threshold", cp.Threshold, &c.Compaction.Threshold, fractionCheck(false)),
		key("compaction.keep_recent_turns", cp.KeepRecentTurns, &c.Compaction.KeepRecentTurns, notNegative),
		key("session.dir", se.Dir, &c.Session.Dir, keep),
		key("session.enabled", se.Enabled, &c.Session.Enabled, keep),
		key("web_fetch.allow_private", wf.AllowPrivate, &c.WebFetch.AllowPrivate, keep),
		key("web_fetch.max_bytes", wf.MaxBytes, &c.WebFetch.MaxBytes, positive),
		key("web_search.backend", ws.Backend, &c.WebSearch.Backend, oneOf([]string{"searxng"}, func(v string) string {
			return fmt.Sprintf("invalid value %q: the only backend is \"searxng\"", v)
		})),
		key("web_search.base_url", ws.BaseURL, &c.WebSearch.BaseURL, keep),
		key("graph.embeddings_model", g.EmbeddingsModel, &c.Graph.EmbeddingsModel, keep),
		key("graph.embeddings_provider", g.EmbeddingsProvider, &c.Graph.EmbeddingsProvider, keep),
		func(c *Config, o origin) error { return c.applySandbox(l.Sandbox, o) },
		func(c *Config, o origin) error { return c.applyPermissions(l.Permissions, o) },
		key("bash.timeout", b.Timeout, &c.Bash.Timeout, parseDuration),
		key("bash.max_output_bytes", b.MaxOutputBytes, &c.Bash.MaxOutputBytes, positive),
	)
}

// applyEntries merges the [[providers]] and [[models]] entries, each by its name.
func (c *Config) applyEntries(l *layer, o origin) error {
	for i := range l.Providers {
		if err := c.applyProvider(&l.Providers[i], fmt.Sprintf("providers[%d]", i), o); err != nil {
			return err
		}
	}
	for i := range l.Models {
		if err := c.applyModel(&l.Models[i], fmt.Sprintf("models[%d]", i), o); err != nil {
			return err
		}
	}
	return nil
}

// applyTools merges the [tools.<name>] tables in name order.
func (c *Config) applyTools(tables map[string]map[string]any, o origin) error {
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		if err := c.applyTool(name, tables[name], o); err != nil {
			return err
		}
	}
	return nil
}

// not reads a key that says the opposite of the field it sets (enabled = false sets Off).
func not(v bool) (bool, error) { return !v, nil }

func (c *Config) applyProvider(l *providerLayer, raw string, o origin) error {
	if l.Name == nil || *l.Name == "" {
		return fieldError(o, raw, raw, "a [[providers]] entry needs a name", "")
	}
	name := *l.Name
	i := slices.IndexFunc(c.Providers, func(p Provider) bool { return p.Name == name })
	if i < 0 {
		c.Providers = append(c.Providers, Provider{Name: name, Kind: KindOpenAICompatible})
		i = len(c.Providers) - 1
		c.sources["providers."+name+".name"] = o(raw + ".name")
	}
	p := &c.Providers[i]
	e := entry{raw, "providers." + name}
	kind := func(v string) (ProviderKind, error) {
		if !slices.Contains(providerKinds, v) {
			return "", hinted{fmt.Sprintf("invalid provider kind %q: want one of %v", v, providerKinds), tomlfile.Suggest(v, providerKinds)}
		}
		return ProviderKind(v), nil
	}
	return c.runSteps(o,
		entryKey(e, "kind", l.Kind, &p.Kind, kind),
		entryKey(e, "base_url", l.BaseURL, &p.BaseURL, keep),
		entryKey(e, "api_key_env", l.APIKeyEnv, &p.APIKeyEnv, keep),
		func(c *Config, o origin) error { c.applyHeaders(p, l.Headers, e, o); return nil },
		entryKey(e, "xml_tool_calls", l.XMLToolCalls, &p.XMLToolCalls, keep),
		entryKey(e, "timeout", l.Timeout, &p.Timeout, parseDuration),
		// project and location are Vertex AI's (vertex.go).
		entryKey(e, "project", l.Project, &p.Project, keep),
		entryKey(e, "location", l.Location, &p.Location, keep),
	)
}

// applyHeaders merges a provider's headers key by key, each with its own source.
func (c *Config) applyHeaders(p *Provider, headers *map[string]string, e entry, o origin) {
	if headers == nil {
		return
	}
	if p.Headers == nil {
		p.Headers = map[string]string{}
	}
	for k, v := range *headers {
		p.Headers[k] = v
		c.sources[e.path+".headers."+k] = o(e.raw + ".headers." + k)
	}
}

func (c *Config) applyModel(l *modelLayer, raw string, o origin) error {
	if l.Name == nil || *l.Name == "" {
		return fieldError(o, raw, raw, "a [[models]] entry needs a name", "")
	}
	name := *l.Name
	i := slices.IndexFunc(c.Models, func(m Model) bool { return m.Name == name })
	if i < 0 {
		c.Models = append(c.Models, Model{Name: name})
		i = len(c.Models) - 1
		c.sources["models."+name+".name"] = o(raw + ".name")
	}
	m := &c.Models[i]
	e := entry{raw, "models." + name}
	return c.runSteps(o,
		entryKey(e, "provider", l.Provider, &m.Provider, keep),
		entryKey(e, "wire_name", l.WireName, &m.WireName, keep),
		entryKey(e, "fallback_model", l.FallbackModel, &m.FallbackModel, keep),
		entryKey(e, "aliases", l.Aliases, &m.Aliases, cloned),
		entryKey(e, "context_window", l.ContextWindow, &m.ContextWindow, notNegative),
		entryKey(e, "input_price", l.InputPrice, &m.InputPrice, notNegative),
		entryKey(e, "output_price", l.OutputPrice, &m.OutputPrice, notNegative),
		entryKey(e, "temperature", l.Temperature, &m.Temperature, pointerTo),
	)
}

// pointerTo takes a value for a field that is nil when unset.
func pointerTo(v float64) (*float64, error) { return &v, nil }
