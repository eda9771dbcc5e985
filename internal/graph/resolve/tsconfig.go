package resolve

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// TSConfig is what the pass reads of a tsconfig.json: compilerOptions.baseUrl and
// compilerOptions.paths, with folders relative to the repository root.
type TSConfig struct {
	// BaseURL is the folder bare specifiers are also looked up from; "" (the root)
	// is a valid value, so HasBaseURL says whether one was set.
	BaseURL    string
	HasBaseURL bool
	// Paths are the aliases, longest prefix first, as TypeScript matches them.
	Paths []TSPath
}

// TSPath is one entry of paths: a pattern with at most one `*`, and the folders
// (relative to the root, `*` kept) it maps to, in order.
type TSPath struct {
	Pattern string
	Targets []string
}

// ParseTSConfig reads the tsconfig.json found in folder dir (repository-relative)
// from its content: JSON with comments and trailing commas, as tsc accepts it.
// extends is not followed.
func ParseTSConfig(dir string, content []byte) (*TSConfig, error) {
	var raw struct {
		CompilerOptions struct {
			BaseURL *string             `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if err := json.Unmarshal(stripJSONC(content), &raw); err != nil {
		return nil, fmt.Errorf("parse %s: %w", join(dir, "tsconfig.json"), err)
	}
	c := &TSConfig{}
	// paths are relative to baseUrl when it is set, else to the tsconfig's folder.
	pathsBase := dir
	if b := raw.CompilerOptions.BaseURL; b != nil {
		c.BaseURL, c.HasBaseURL = join(dir, *b), true
		pathsBase = c.BaseURL
	}
	for pattern, targets := range raw.CompilerOptions.Paths {
		p := TSPath{Pattern: pattern}
		for _, tg := range targets {
			p.Targets = append(p.Targets, join(pathsBase, tg))
		}
		c.Paths = append(c.Paths, p)
	}
	sort.Slice(c.Paths, func(i, j int) bool {
		a, b := prefixLen(c.Paths[i].Pattern), prefixLen(c.Paths[j].Pattern)
		if a != b {
			return a > b
		}
		return c.Paths[i].Pattern < c.Paths[j].Pattern
	})
	return c, nil
}

func prefixLen(pattern string) int {
	if i := strings.IndexByte(pattern, '*'); i >= 0 {
		return i
	}
	return len(pattern) + 1 // an exact pattern beats any wildcard
}

// candidates lists the repository paths a bare specifier may name, in the order
// tsc tries them: the first matching paths pattern's targets, then baseUrl.
func (c *TSConfig) candidates(spec string) []string {
	var out []string
	for _, p := range c.Paths {
		star, ok := matchPattern(p.Pattern, spec)
		if !ok {
			continue
		}
		for _, tg := range p.Targets {
			out = append(out, strings.Replace(tg, "*", star, 1))
		}
		break
	}
	if c.HasBaseURL {
		out = append(out, join(c.BaseURL, spec))
	}
	return out
}

// matchPattern matches spec against a paths pattern and returns what `*` stood for.
func matchPattern(pattern, spec string) (string, bool) {
	prefix, suffix, wild := strings.Cut(pattern, "*")
	if !wild {
		return "", pattern == spec
	}
	if len(spec) < len(prefix)+len(suffix) || !strings.HasPrefix(spec, prefix) || !strings.HasSuffix(spec, suffix) {
		return "", false
	}
	return spec[len(prefix) : len(spec)-len(suffix)], true
}

// stripJSONC blanks // and /* */ comments outside strings and drops commas that
// close an object or array, so encoding/json reads a tsconfig.json.
func stripJSONC(in []byte) []byte {
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(in) && in[j] != '"' {
				if in[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(in))
			out = append(out, in[i:end]...)
			i = end - 1
		case c == '/' && i+1 < len(in) && in[i+1] == '/':
			for i < len(in) && in[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(in) && in[i+1] == '*':
			i += 2
			for i+1 < len(in) && (in[i] != '*' || in[i+1] != '/') {
				i++
			}
			i++
			out = append(out, ' ')
		case c == '}' || c == ']':
			// Drop a trailing comma (and the blanks after it) before the closer.
			k := len(out) - 1
			for k >= 0 && isBlank(out[k]) {
				k--
			}
			if k >= 0 && out[k] == ',' {
				out = append(out[:k], out[k+1:]...)
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
