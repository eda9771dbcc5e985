package permission

import (
	"fmt"
	"path/filepath"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/etalab-ia/albert-code/internal/sensitive"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// target is a path a call touches, where it really leads, and the link it was named
// by when that differs.
type target struct {
	path string // absolute, links resolved
	via  string // the path as named, when a link lies between; else ""
}

// targets resolves every path, and keeps each path as given too: a tool reports the
// target it will open, and that exact path is judged even if a link swapped in since
// makes it resolve elsewhere. A named path whose real target is also reported lends
// it its name, so the message can say which link led there.
func (p *Policy) targets(paths []string) []target {
	var out []target
	index := map[string]int{}
	add := func(t target) {
		if i, ok := index[t.path]; ok {
			if out[i].via == "" {
				out[i].via = t.via
			}
			return
		}
		index[t.path] = len(out)
		out = append(out, t)
	}
	for _, named := range p.absolute(paths) {
		real, err := sensitive.Resolve(named)
		if err != nil {
			real = named // a link loop: the tool refuses to open it anyway
		}
		if real == named {
			add(target{path: real})
			continue
		}
		add(target{path: real, via: named})
		add(target{path: named})
	}
	return out
}

// workRoots are the workspace as configured and with its links resolved: a real path
// lies below the second.
func (p *Policy) workRoots() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.realWork == "" && p.WorkDir != "" {
		p.realWork = filepath.Clean(p.WorkDir)
		if abs, err := filepath.Abs(p.WorkDir); err == nil {
			if real, err := sensitive.Resolve(abs); err == nil {
				p.realWork = real
			}
		}
	}
	return []string{filepath.Clean(p.WorkDir), p.realWork}
}

func (p *Policy) inside(path string) bool {
	for _, root := range p.workRoots() {
		if within(root, path) {
			return true
		}
	}
	return false
}

// through names the link a target was reached by, for messages.
func (p *Policy) through(t target) string {
	if t.via == "" {
		return ""
	}
	shown := t.via
	if rel, err := filepath.Rel(filepath.Clean(p.WorkDir), t.via); err == nil && within(p.WorkDir, t.via) {
		shown = filepath.ToSlash(rel)
	}
	return fmt.Sprintf(" (through the link %s)", shown)
}

// secret refuses a target that is a secret path, whatever the profile, a grant or an
// approval would say: only the user's own global configuration lifts it.
func (p *Policy) secret(info tool.Info, t target) (Verdict, bool) {
	secrets := p.Secrets
	if secrets == nil {
		secrets = sensitive.DefaultSecrets()
	}
	s, ok := sensitive.Refused(secrets, p.AllowSecrets, t.path)
	if !ok {
		return Verdict{}, false
	}
	return Verdict{Level: Never, Reason: fmt.Sprintf("%s of %s%s is refused by the secret-path rule: it lies in %s, which holds keys or credentials no tool may read or write. %s",
		info.Name, t.path, p.through(t), s, sensitive.AllowSecretHint(t.path))}, true
}

// control makes a change to a control file ask, whatever the profile, a grant, an
// allow glob or permission = "always" say, unless the user's global configuration
// names it in allow_control.
func (p *Policy) control(info tool.Info, t target) (Verdict, bool) {
	for _, root := range p.workRoots() {
		for _, path := range []string{t.path, t.via} {
			if path == "" {
				continue
			}
			rule, ok := sensitive.Control(root, path)
			if !ok || p.controlAllowed(root, path) {
				continue
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			return Verdict{
				Level:  Ask,
				Reason: fmt.Sprintf("%s to %s%s, a protected control file (%s)", info.Name, rel, p.through(t), sensitive.ControlReason(rule)),
				Allow:  sensitive.AllowControlHint(rel),
			}, true
		}
	}
	return Verdict{}, false
}

// controlAllowed matches path against allow_control: relative globs against the path
// from the workspace root, absolute ones against the path itself.
func (p *Policy) controlAllowed(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return false
	}
	for _, g := range p.AllowControl {
		subject := filepath.ToSlash(rel)
		if filepath.IsAbs(g) {
			subject = path
		}
		if ok, _ := doublestar.Match(filepath.ToSlash(g), filepath.ToSlash(subject)); ok {
			return true
		}
	}
	return false
}
