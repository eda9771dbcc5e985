package tool

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
)

// Registry holds the tools available to one agent, by name.
type Registry struct {
	tools map[string]Tool
}

// NewRegistry returns a registry holding ts. Adding two tools of one name is an error.
func NewRegistry(ts ...Tool) (*Registry, error) {
	r := &Registry{tools: make(map[string]Tool, len(ts))}
	for _, t := range ts {
		if err := r.Add(t); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Add registers t.
func (r *Registry) Add(t Tool) error {
	name := t.Info().Name
	if _, dup := r.tools[name]; dup {
		return fmt.Errorf("tool %q registered twice", name)
	}
	r.tools[name] = t
	return nil
}

// Get returns the tool called name.
func (r *Registry) Get(name string) (Tool, bool) {
	t, ok := r.tools[name]
	return t, ok
}

// All returns the tools sorted by name; a stable order keeps prompts byte-identical
// from turn to turn, which prompt caches reward.
func (r *Registry) All() []Tool {
	out := make([]Tool, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Info().Name < out[j].Info().Name })
	return out
}

// Prepare does, ahead of time, the work tools would otherwise do on their first call
// (resolving validation schemas). Call it in a goroutine while the first model call
// waits on the network.
func (r *Registry) Prepare() {
	for _, t := range r.tools {
		if p, ok := t.(interface{ Prepare() }); ok {
			p.Prepare()
		}
	}
}

// Filter returns a registry with only the tools keep accepts.
func (r *Registry) Filter(keep func(Info) bool) *Registry {
	out := &Registry{tools: make(map[string]Tool)}
	for name, t := range r.tools {
		if keep(t.Info()) {
			out.tools[name] = t
		}
	}
	return out
}

// NamePattern matches tool names (and other names: profiles, skills). A pattern is
// an exact name, a shell glob (`web_*`), or a regular expression after `re:` that
// must match the whole name. Matching ignores case.
type NamePattern struct {
	raw  string
	re   *regexp.Regexp
	glob string
}

// ParseNamePattern compiles p, naming p in the error when its regular expression is bad.
func ParseNamePattern(p string) (NamePattern, error) {
	if expr, ok := strings.CutPrefix(p, "re:"); ok {
		re, err := regexp.Compile("(?i)^(?:" + expr + ")$")
		if err != nil {
			return NamePattern{}, fmt.Errorf("tool pattern %q: %w", p, err)
		}
		return NamePattern{raw: p, re: re}, nil
	}
	if _, err := path.Match(p, ""); err != nil {
		return NamePattern{}, fmt.Errorf("tool pattern %q: %w", p, err)
	}
	return NamePattern{raw: p, glob: strings.ToLower(p)}, nil
}

// Match reports whether name fits the pattern.
func (p NamePattern) Match(name string) bool {
	if p.re != nil {
		return p.re.MatchString(name)
	}
	ok, _ := path.Match(p.glob, strings.ToLower(name))
	return ok
}

func (p NamePattern) String() string { return p.raw }

// ParseNamePatterns compiles every pattern in ps.
func ParseNamePatterns(ps []string) ([]NamePattern, error) {
	out := make([]NamePattern, 0, len(ps))
	for _, p := range ps {
		np, err := ParseNamePattern(p)
		if err != nil {
			return nil, err
		}
		out = append(out, np)
	}
	return out, nil
}

// MatchAny reports whether any pattern matches name.
func MatchAny(ps []NamePattern, name string) bool {
	for _, p := range ps {
		if p.Match(name) {
			return true
		}
	}
	return false
}
