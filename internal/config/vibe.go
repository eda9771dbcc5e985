package config

import (
	"strings"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
)

// vibeFile is the part of Mistral Vibe's and the Albert fork's config schema that has
// a meaning here (ac:albert_code/core/config.py, notes §2.13-2.14). Other Vibe keys
// (vim_keybindings, project_context...) are ignored, not errors: the file is shared
// with another program.
type vibeFile struct {
	ActiveModel   *string                   `toml:"active_model"`
	DefaultAgent  *string                   `toml:"default_agent"`
	EnabledTools  *[]string                 `toml:"enabled_tools"`
	DisabledTools *[]string                 `toml:"disabled_tools"`
	Providers     []vibeProvider            `toml:"providers"`
	Models        []vibeModel               `toml:"models"`
	Tools         map[string]map[string]any `toml:"tools"`
	// AutoFallback has the same key and meaning in ours.
	AutoFallback *bool `toml:"auto_fallback_enabled"`
	// UpdateChecks is our update_check.
	UpdateChecks *bool `toml:"enable_update_checks"`
}

type vibeProvider struct {
	Name                  *string            `toml:"name"`
	APIBase               *string            `toml:"api_base"`
	APIKeyEnvVar          *string            `toml:"api_key_env_var"`
	APIStyle              *string            `toml:"api_style"`
	Backend               *string            `toml:"backend"`
	StreamingXMLToolCalls *bool              `toml:"streaming_xml_tool_calls"`
	ExtraHeaders          *map[string]string `toml:"extra_headers"`
}

// vibeModel: in Vibe, name is the wire id and alias is what users type.
type vibeModel struct {
	Name          *string  `toml:"name"`
	Provider      *string  `toml:"provider"`
	Alias         *string  `toml:"alias"`
	Temperature   *float64 `toml:"temperature"`
	InputPrice    *float64 `toml:"input_price"`
	OutputPrice   *float64 `toml:"output_price"`
	FallbackModel *string  `toml:"fallback_model"`
}

// vibeKeys maps our key names back to Vibe's, so errors and `config show` point at
// the line the user wrote.
var vibeKeys = map[string]string{
	"model": "active_model", "agent": "default_agent", "base_url": "api_base",
	"api_key_env": "api_key_env_var", "kind": "backend", "xml_tool_calls": "streaming_xml_tool_calls",
	"headers": "extra_headers", "update_check": "enable_update_checks",
}

func decodeVibe(path string, data []byte) (*layer, origin, error) {
	var v vibeFile
	lines, err := tomlfile.DecodeLoose(path, data, &v)
	if err != nil {
		return nil, nil, err
	}
	l := &layer{Model: v.ActiveModel, Agent: v.DefaultAgent, EnabledTools: v.EnabledTools, DisabledTools: v.DisabledTools, AutoFallback: v.AutoFallback}
	l.UpdateCheck = v.UpdateChecks
	for _, p := range v.Providers {
		l.Providers = append(l.Providers, providerLayer{
			Name: p.Name, BaseURL: p.APIBase, APIKeyEnv: p.APIKeyEnvVar, Kind: vibeKind(p.APIStyle, p.Backend),
			XMLToolCalls: p.StreamingXMLToolCalls, Headers: p.ExtraHeaders,
		})
	}
	for _, m := range v.Models {
		name := m.Alias
		if name == nil {
			name = m.Name
		}
		l.Models = append(l.Models, modelLayer{
			Name: name, WireName: m.Name, Provider: m.Provider, Temperature: m.Temperature,
			InputPrice: m.InputPrice, OutputPrice: m.OutputPrice, FallbackModel: m.FallbackModel,
		})
	}
	for name, t := range v.Tools {
		// Only permission has the same meaning: Vibe's allowlist/denylist are command
		// prefixes for bash and would be misread as path globs.
		if p, ok := t["permission"]; ok {
			if l.Tools == nil {
				l.Tools = map[string]map[string]any{}
			}
			l.Tools[name] = map[string]any{"permission": p}
		}
	}
	base := fileOrigin(path, lines)
	o := func(raw string) Source {
		i := strings.LastIndex(raw, ".")
		if vk, ok := vibeKeys[raw[i+1:]]; ok {
			raw = raw[:i+1] + vk
		}
		return base(raw)
	}
	return l, o, nil
}

// vibeKind maps Vibe's api_style/backend pair onto a provider kind (notes §2.14).
func vibeKind(style, backend *string) *string {
	if style == nil && backend == nil {
		return nil
	}
	k := string(KindOpenAICompatible)
	switch {
	case backend != nil && *backend == "mistral":
		k = string(KindMistral)
	case style != nil && *style == "anthropic":
		k = string(KindAnthropic)
	case style != nil && *style == "vertex-anthropic":
		k = string(KindVertex)
	case style != nil && *style != "openai":
		return style // reported as an invalid kind, at its line
	}
	return &k
}
