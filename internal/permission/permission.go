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

	mu      sync.Mutex
	granted map[string]bool
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
// arguments args. In order: the trusted-folder rule, deny globs and permission =
// "never" refuse; then the tool's classifier refuses; then auto-approve and session
// grants approve; then allow globs or the classifier turn an ask into always; an
// always still asks for paths outside the workspace.
func (p *Policy) CheckCall(info tool.Info, paths []string, args json.RawMessage) Verdict {
	if !info.ReadOnly && !p.Trusted {
		return Verdict{Never, fmt.Sprintf("the folder %s is not trusted, so %s may not run: trust it (albert-code trust) or run with --trust", p.WorkDir, info.Name)}
	}
	rule := p.Rules[info.Name]
	abs := p.absolute(paths)
	for _, path := range abs {
		if g, ok := matchAny(rule.Deny, path, p.WorkDir); ok {
			return Verdict{Never, fmt.Sprintf("%s on %s is denied by the rule %q", info.Name, path, g)}
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
		return Verdict{Never, fmt.Sprintf("%s is disabled by configuration (permission = \"never\")", info.Name)}
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
	if p.AutoApprove || p.isGranted(info.Name) {
		return Verdict{Always, "approved for this session"}
	}
	if level == Ask && (judged.Level == Always || len(abs) > 0 && allMatch(rule.Allow, abs, p.WorkDir)) {
		level = Always
	}
	if level == Always {
		for _, path := range abs {
			if !within(p.WorkDir, path) {
				return Verdict{Ask, fmt.Sprintf("%s touches %s, outside the workspace %s", info.Name, path, p.WorkDir)}
			}
		}
		return Verdict{Always, ""}
	}
	if judged.Level == Ask {
		return judged
	}
	return Verdict{Ask, ""}
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
