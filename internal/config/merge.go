package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

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
	if s.Kind == SourceFile {
		e.Where, e.Line = s.Name, s.Line
	} else {
		e.Where = s.String()
	}
	return e
}

// apply merges l onto c. Scalars override, lists replace, tables merge key by key,
// providers and models merge by name. Every value set is recorded with its source.
func (c *Config) apply(l *layer, o origin) error {
	set := func(dst *string, src *string, raw string) {
		if src != nil {
			*dst = *src
			c.sources[raw] = o(raw)
		}
	}
	set(&c.ModelName, l.Model, "model")
	set(&c.Agent, l.Agent, "agent")
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
	if l.EnabledTools != nil {
		if err := checkPatterns(*l.EnabledTools, o, "enabled_tools"); err != nil {
			return err
		}
		c.EnabledTools = slices.Clone(*l.EnabledTools)
		c.sources["enabled_tools"] = o("enabled_tools")
	}
	if l.DisabledTools != nil {
		if err := checkPatterns(*l.DisabledTools, o, "disabled_tools"); err != nil {
			return err
		}
		c.DisabledTools = slices.Clone(*l.DisabledTools)
		c.sources["disabled_tools"] = o("disabled_tools")
	}
	for _, name := range slices.Sorted(maps.Keys(l.Tools)) {
		if err := c.applyTool(name, l.Tools[name], o); err != nil {
			return err
		}
	}
	if l.ContextWarning != nil {
		if err := fraction(*l.ContextWarning, o, "context_warning", true); err != nil {
			return err
		}
		c.ContextWarning = *l.ContextWarning
		c.sources["context_warning"] = o("context_warning")
	}
	if err := c.applyExtensions(l, o); err != nil {
		return err
	}
	if err := c.applyRateLimits(l.RateLimits, o); err != nil {
		return err
	}
	c.applyAutoFallback(l.AutoFallback, o)
	if err := c.applyAgentLoop(&l.agentLoopLayer, o); err != nil {
		return err
	}
	if err := c.applyNotifications(l.Notifications, &l.updateLayer, o); err != nil {
		return err
	}
	return c.applySections(l, o)
}

func (c *Config) applySections(l *layer, o origin) error {
	rec := func(raw string) { c.sources[raw] = o(raw) }
	if s := l.Compaction; s != nil {
		if s.Threshold != nil {
			if err := fraction(*s.Threshold, o, "compaction.threshold", false); err != nil {
				return err
			}
			c.Compaction.Threshold = *s.Threshold
			rec("compaction.threshold")
		}
		if s.KeepRecentTurns != nil {
			if *s.KeepRecentTurns < 0 {
				return fieldError(o, "compaction.keep_recent_turns", "compaction.keep_recent_turns", "must not be negative", "")
			}
			c.Compaction.KeepRecentTurns = *s.KeepRecentTurns
			rec("compaction.keep_recent_turns")
		}
	}
	if s := l.Session; s != nil {
		if s.Dir != nil {
			c.Session.Dir = *s.Dir
			rec("session.dir")
		}
		if s.Enabled != nil {
			c.Session.Enabled = *s.Enabled
			rec("session.enabled")
		}
	}
	if s := l.WebFetch; s != nil {
		if s.AllowPrivate != nil {
			c.WebFetch.AllowPrivate = *s.AllowPrivate
			rec("web_fetch.allow_private")
		}
		if s.MaxBytes != nil {
			if *s.MaxBytes <= 0 {
				return fieldError(o, "web_fetch.max_bytes", "web_fetch.max_bytes", "must be positive", "")
			}
			c.WebFetch.MaxBytes = *s.MaxBytes
			rec("web_fetch.max_bytes")
		}
	}
	if s := l.WebSearch; s != nil {
		if s.Backend != nil {
			if *s.Backend != "searxng" {
				return fieldError(o, "web_search.backend", "web_search.backend",
					fmt.Sprintf("invalid value %q: the only backend is \"searxng\"", *s.Backend), tomlfile.Suggest(*s.Backend, []string{"searxng"}))
			}
			c.WebSearch.Backend = *s.Backend
			rec("web_search.backend")
		}
		if s.BaseURL != nil {
			c.WebSearch.BaseURL = *s.BaseURL
			rec("web_search.base_url")
		}
	}
	if g := l.Graph; g != nil {
		if g.EmbeddingsModel != nil {
			c.Graph.EmbeddingsModel = *g.EmbeddingsModel
			rec("graph.embeddings_model")
		}
		if g.EmbeddingsProvider != nil {
			c.Graph.EmbeddingsProvider = *g.EmbeddingsProvider
			rec("graph.embeddings_provider")
		}
	}
	if err := c.applySandbox(l.Sandbox, o); err != nil {
		return err
	}
	if err := c.applyPermissions(l.Permissions, o); err != nil {
		return err
	}
	if s := l.Bash; s != nil {
		if s.Timeout != nil {
			d, err := parseDuration(*s.Timeout)
			if err != nil {
				return fieldError(o, "bash.timeout", "bash.timeout", err.Error(), "")
			}
			c.Bash.Timeout = d
			rec("bash.timeout")
		}
		if s.MaxOutputBytes != nil {
			if *s.MaxOutputBytes <= 0 {
				return fieldError(o, "bash.max_output_bytes", "bash.max_output_bytes", "must be positive", "")
			}
			c.Bash.MaxOutputBytes = *s.MaxOutputBytes
			rec("bash.max_output_bytes")
		}
	}
	return nil
}

// fraction checks v is in (0, 1], or [0, 1] when zero (meaning "off") is allowed.
func fraction(v float64, o origin, key string, zeroOK bool) error {
	if (v > 0 || (zeroOK && v == 0)) && v <= 1 {
		return nil
	}
	return fieldError(o, key, key, "must be a fraction between 0 and 1, got "+strconv.FormatFloat(v, 'g', -1, 64), "")
}

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
	key := "providers." + name + "."
	rec := func(field string) { c.sources[key+field] = o(raw + "." + field) }
	if l.Kind != nil {
		if !slices.Contains(providerKinds, *l.Kind) {
			return fieldError(o, raw+".kind", key+"kind",
				fmt.Sprintf("invalid provider kind %q: want one of %v", *l.Kind, providerKinds), tomlfile.Suggest(*l.Kind, providerKinds))
		}
		p.Kind = ProviderKind(*l.Kind)
		rec("kind")
	}
	if l.BaseURL != nil {
		p.BaseURL = *l.BaseURL
		rec("base_url")
	}
	if l.APIKeyEnv != nil {
		p.APIKeyEnv = *l.APIKeyEnv
		rec("api_key_env")
	}
	if l.Headers != nil {
		if p.Headers == nil {
			p.Headers = map[string]string{}
		}
		for k, v := range *l.Headers {
			p.Headers[k] = v
			c.sources[key+"headers."+k] = o(raw + ".headers." + k)
		}
	}
	if l.XMLToolCalls != nil {
		p.XMLToolCalls = *l.XMLToolCalls
		rec("xml_tool_calls")
	}
	if l.Timeout != nil {
		d, err := parseDuration(*l.Timeout)
		if err == nil && d <= 0 {
			err = fmt.Errorf("must be positive")
		}
		if err != nil {
			return fieldError(o, raw+".timeout", key+"timeout", err.Error(), "")
		}
		p.Timeout = d
		rec("timeout")
	}
	applyVertex(p, l, rec)
	return nil
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
	key := "models." + name + "."
	rec := func(field string) { c.sources[key+field] = o(raw + "." + field) }
	str := func(dst *string, src *string, field string) {
		if src != nil {
			*dst = *src
			rec(field)
		}
	}
	str(&m.Provider, l.Provider, "provider")
	str(&m.WireName, l.WireName, "wire_name")
	str(&m.FallbackModel, l.FallbackModel, "fallback_model")
	if l.Aliases != nil {
		m.Aliases = slices.Clone(*l.Aliases)
		rec("aliases")
	}
	if l.ContextWindow != nil {
		if *l.ContextWindow < 0 {
			return fieldError(o, raw+".context_window", key+"context_window", "must not be negative", "")
		}
		m.ContextWindow = *l.ContextWindow
		rec("context_window")
	}
	for _, f := range []struct {
		dst   *float64
		src   *float64
		field string
	}{{&m.InputPrice, l.InputPrice, "input_price"}, {&m.OutputPrice, l.OutputPrice, "output_price"}} {
		if f.src != nil {
			if *f.src < 0 {
				return fieldError(o, raw+"."+f.field, key+f.field, "must not be negative", "")
			}
			*f.dst = *f.src
			rec(f.field)
		}
	}
	if l.Temperature != nil {
		t := *l.Temperature
		m.Temperature = &t
		rec("temperature")
	}
	return nil
}
