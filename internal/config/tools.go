package config

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// toolKeys are the [tools.<name>] keys the config itself understands; every other key
// is the tool's own option.
var toolKeys = []string{"permission", "allow", "deny"}

// applyTool merges one [tools.<name>] table. Options are free-form, but an option one
// edit away from a known key ("permision", "alow") is almost surely a typo that would
// otherwise silently leave the tool unprotected, so it is an error.
func (c *Config) applyTool(name string, table map[string]any, o origin) error {
	if c.Tools == nil {
		c.Tools = map[string]ToolConfig{}
	}
	tc := c.Tools[name]
	tc.Options = maps.Clone(tc.Options)
	key := "tools." + name + "."
	rec := func(field string) { c.sources[key+field] = o(key + field) }
	for _, k := range slices.Sorted(maps.Keys(table)) {
		v := table[k]
		switch k {
		case "permission":
			s, ok := v.(string)
			if !ok {
				return fieldError(o, key+k, key+k, fmt.Sprintf("expected a string, found %T", v), "")
			}
			p, err := ParsePermission(s)
			if err != nil {
				return fieldError(o, key+k, key+k, err.Error(), tomlfile.Suggest(s, permissions))
			}
			tc.Permission = p
			rec(k)
		case "allow", "deny":
			parse := pathGlobs
			if name == "bash" {
				parse = commandPrefixes
			}
			list, err := parse(v)
			if err != nil {
				return fieldError(o, key+k, key+k, err.Error(), "")
			}
			if k == "allow" {
				tc.Allow = list
			} else {
				tc.Deny = list
			}
			rec(k)
		default:
			if s := tomlfile.Suggest(k, toolKeys); s != "" && tomlfile.Distance(k, s) <= 1 {
				return fieldError(o, key+k, key+k, fmt.Sprintf("unknown key %q", k), s)
			}
			if tc.Options == nil {
				tc.Options = map[string]any{}
			}
			tc.Options[k] = v
			rec(k)
		}
	}
	c.Tools[name] = tc
	return nil
}

func pathGlobs(v any) ([]string, error) {
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("expected an array of path globs, found %T", v)
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("expected an array of path globs, found an element of type %T", it)
		}
		if _, err := path.Match(s, ""); err != nil {
			return nil, fmt.Errorf("bad path glob %q: %v", s, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// commandPrefixes reads [tools.bash] allow or deny: command prefixes such as
// "git status", whole words separated by spaces.
func commandPrefixes(v any) ([]string, error) {
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("expected an array of command prefixes, found %T", v)
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("expected an array of command prefixes, found an element of type %T", it)
		}
		if strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("empty command prefix")
		}
		out = append(out, s)
	}
	return out, nil
}

// toolPatterns checks tool name patterns (exact, glob or re:) at load, so a bad
// regular expression is reported where it is written, not when the tool list is built.
func toolPatterns(ps []string) ([]string, error) {
	for _, p := range ps {
		if _, err := tool.ParseNamePattern(p); err != nil {
			return nil, err
		}
	}
	return slices.Clone(ps), nil
}
