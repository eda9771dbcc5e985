// Package permission decides, before a tool call runs, whether it may run at once,
// must be approved by a person, or is refused: per-tool levels, path globs, escalation
// for paths outside the workspace, the trusted-folder rule and session grants.
package permission

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/etalab-ia/albert-code/internal/tool"
)

// Level is what a rule says about a call.
type Level string

const (
	Always Level = "always"
	Ask    Level = "ask"
	Never  Level = "never"
)

// ParseLevel checks a level read from configuration.
func ParseLevel(s string) (Level, error) {
	switch l := Level(strings.ToLower(s)); l {
	case Always, Ask, Never:
		return l, nil
	}
	return "", fmt.Errorf("permission %q: want always, ask or never", s)
}

// Rule is the configuration of one tool.
type Rule struct {
	// Level is the tool's permission; empty means the default (always for read-only
	// tools, ask for the others).
	Level Level
	// Allow lists path globs for which calls run without asking.
	Allow []string
	// Deny lists path globs for which calls are refused.
	Deny []string
}

// Verdict is the decision for one call, with the reason a person or model is told.
type Verdict struct {
	Level  Level
	Reason string
	// Allow, when set, says what would let an Ask run where no one can approve it,
	// in place of the usual advice (permission = "always", auto-approve), which does
	// not lift this ask.
	Allow string
}

// Policy holds the rules of one agent session. It is safe for concurrent use.
type Policy struct {
	// WorkDir is the workspace; paths outside it escalate to Ask.
	WorkDir string
	// Trusted says whether WorkDir is a trusted folder. Tools that change things
	// are refused in an untrusted folder.
	Trusted bool
	// AutoApprove turns every Ask into Always (auto-approve profile, --yolo). Never
	// rules and the trust rule still hold.
	AutoApprove bool
	// Rules are per tool name.
	Rules map[string]Rule
	// Classifiers judge the arguments of the tools whose danger depends on them (the
	// bash command line), by tool name. A classifier returns false when it has no
	// opinion. Its Never refuses the call whatever else says yes; its Always lets a
	// call that would ask run at once; its Ask keeps the call asking, with its reason.
	Classifiers map[string]func(args json.RawMessage) (Verdict, bool)

	// Secrets are the paths no tool may read or write, whatever else says yes
	// (absolute, see package sensitive); nil means sensitive.DefaultSecrets().
	Secrets []string
	// AllowSecrets are the user's explicit exceptions to Secrets; AllowControl are
	// globs (relative to WorkDir, or absolute) of control files that may change
	// without asking. Both come from the user's own global configuration only: a
	// project file must not be able to lift what guards against it.
	AllowSecrets []string
	AllowControl []string

	mu       sync.Mutex
	granted  map[string]bool
	realWork string // WorkDir with its links resolved, once
}

// GrantForSession makes later calls to toolName run without asking.
func (p *Policy) GrantForSession(toolName string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.granted == nil {
		p.granted = make(map[string]bool)
	}
	p.granted[toolName] = true
}

func (p *Policy) isGranted(toolName string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.granted[toolName]
}

// Check decides for a call to the tool described by info that touches paths, without
// looking at its arguments.
func (p *Policy) Check(info tool.Info, paths []string) Verdict {
	return p.CheckCall(info, paths, nil)
}

// CheckCall decides for a call to the tool described by info that touches paths, with
// arguments args. Each path is judged where it really leads, links resolved. In
// order: the trusted-folder rule, secret paths, deny globs and permission = "never"
// refuse; then the tool's classifier refuses; then a change to a control file asks
// whatever follows; then auto-approve and session grants approve, but for a change
// outside the workspace, which asks; then allow globs or
// the classifier turn an ask into always; an always still asks for paths outside the
// workspace.
func (p *Policy) CheckCall(info tool.Info, paths []string, args json.RawMessage) Verdict {
	if !info.ReadOnly && !p.Trusted {
		return Verdict{Level: Never, Reason: fmt.Sprintf("the folder %s is not trusted, so %s may not run: trust it (albert-code trust) or run with --trust", p.WorkDir, info.Name)}
	}
	rule := p.Rules[info.Name]
	targets := p.targets(paths)
	for _, t := range targets {
		if v, refused := p.secret(info, t); refused {
			return v
		}
	}
	for _, t := range targets {
		for _, path := range []string{t.path, t.via} {
			if path == "" {
				continue
			}
			if g, ok := matchAny(rule.Deny, path, p.WorkDir); ok {
				return Verdict{Level: Never, Reason: fmt.Sprintf("%s on %s is denied by the rule %q", info.Name, path, g)}
			}
		}
	}
	level := rule.Level
	if level == "" {
		level = Ask
		if info.ReadOnly {
			level = Always
		}
	}
	if level == Never {
		return Verdict{Level: Never, Reason: fmt.Sprintf("%s is disabled by configuration (permission = \"never\")", info.Name)}
	}
	var judged Verdict
	if classify := p.Classifiers[info.Name]; classify != nil && args != nil {
		if v, ok := classify(args); ok {
			judged = v
		}
	}
	if judged.Level == Never {
		return judged
	}
	if !info.ReadOnly {
		for _, t := range targets {
			if v, protected := p.control(info, t); protected {
				return v
			}
		}
	}
	if p.AutoApprove || p.isGranted(info.Name) {
		// auto-approve and a session grant cover the workspace, as the sandbox does
		// for commands: a write outside it (~/.bashrc, ~/.local/bin/git) still asks.
		if !info.ReadOnly {
			for _, t := range targets {
				if !p.inside(t.path) {
					return Verdict{Level: Ask, Reason: fmt.Sprintf("%s touches %s%s, outside the workspace %s; auto-approve and session grants cover the workspace only",
						info.Name, t.path, p.through(t), p.WorkDir)}
				}
			}
		}
		return Verdict{Level: Always, Reason: "approved for this session"}
	}
	real := make([]string, len(targets))
	for i, t := range targets {
		real[i] = t.path
	}
	if level == Ask && (judged.Level == Always || len(real) > 0 && allMatch(rule.Allow, real, p.WorkDir)) {
		level = Always
	}
	if level == Always {
		for _, t := range targets {
			if !p.inside(t.path) {
				return Verdict{Level: Ask, Reason: fmt.Sprintf("%s touches %s%s, outside the workspace %s", info.Name, t.path, p.through(t), p.WorkDir)}
			}
		}
		return Verdict{Level: Always}
	}
	if judged.Level == Ask {
		return judged
	}
	return Verdict{Level: Ask}
}

func (p *Policy) absolute(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, path := range paths {
		if path == "" {
			continue
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(p.WorkDir, path)
		}
		out = append(out, filepath.Clean(path))
	}
	return out
}

// within reports whether path is dir or below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// matchAny matches path against globs; relative globs are relative to workDir.
func matchAny(globs []string, path, workDir string) (string, bool) {
	for _, g := range globs {
		pattern := g
		if !filepath.IsAbs(pattern) {
			pattern = filepath.Join(workDir, pattern)
		}
		if ok, _ := doublestar.PathMatch(pattern, path); ok {
			return g, true
		}
	}
	return "", false
}

func allMatch(globs []string, paths []string, workDir string) bool {
	if len(globs) == 0 {
		return false
	}
	for _, path := range paths {
		if _, ok := matchAny(globs, path, workDir); !ok {
			return false
		}
	}
	return true
}
