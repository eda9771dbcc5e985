package profile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
)

// Catalog holds every profile, resolved.
type Catalog struct {
	profiles map[string]Profile
	// broken holds the profiles a file could not define, with the reason: only a run
	// that asks for one of them fails.
	broken map[string]error
	// Warnings name each file and key that was ignored or could not be read.
	Warnings []string
}

// Options say where user profiles live.
type Options struct {
	// Home is the application directory; its agents/ folder holds user profiles.
	Home string
	// WorkDir starts the search for the nearest project .albert-code/agents folder.
	WorkDir string
	// Trusted says whether a project directory may define profiles. A project file
	// could otherwise redefine "default" as auto-approve; nil trusts every project.
	Trusted func(dir string) bool
}

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// Load reads the built-ins, then <home>/agents/*.toml, then the nearest project
// .albert-code/agents/*.toml; a later file overrides an earlier one field by field.
func Load(opts Options) (*Catalog, error) {
	defs := map[string][]definition{}
	c := &Catalog{profiles: map[string]Profile{}, broken: map[string]error{}}
	dirs := []string{filepath.Join(opts.Home, "agents")}
	if proj := findProjectAgents(opts.WorkDir); proj != "" {
		if root := filepath.Dir(filepath.Dir(proj)); opts.Trusted == nil || opts.Trusted(root) {
			dirs = append(dirs, proj)
		}
	}
	for _, dir := range dirs {
		if err := c.readDir(dir, defs); err != nil {
			return nil, err
		}
	}
	r := resolver{defs: defs, done: c.profiles}
	names := []string{}
	for _, b := range Builtins() {
		names = append(names, b.Name)
	}
	for name := range defs {
		if _, bad := c.broken[name]; !bad && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	r.known = names
	for _, name := range names {
		if _, bad := c.broken[name]; bad {
			continue
		}
		if _, err := r.resolve(name, nil); err != nil {
			c.broken[name] = err
			c.Warnings = append(c.Warnings, fmt.Sprintf("profile %s is unusable: %v", name, err))
		}
	}
	return c, nil
}

// readDir reads every <name>.toml of dir. A file that cannot be read or decoded
// makes its profile broken, not the load: runs with another profile go on.
func (c *Catalog) readDir(dir string, defs map[string][]definition) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read profiles: %w", err)
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".toml")
		if !ok || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if !validName.MatchString(name) {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: ignored: profile names use lower-case letters, digits, - and _ (rename the file)", path))
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			c.breakProfile(name, fmt.Errorf("read profile: %w", err))
			continue
		}
		d, warns, err := decodeDefinition(path, data)
		c.Warnings = append(c.Warnings, warns...)
		if err == nil {
			err = d.check()
		}
		if err != nil {
			c.breakProfile(name, err)
			continue
		}
		defs[name] = append(defs[name], d)
	}
	return nil
}

// findProjectAgents returns the nearest .albert-code/agents directory from dir upwards.
func findProjectAgents(dir string) string {
	if dir == "" {
		return ""
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, ".albert-code", "agents")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// resolver flattens extends chains, detecting cycles.
type resolver struct {
	defs  map[string][]definition
	done  map[string]Profile
	known []string
}

func (r *resolver) resolve(name string, chain []string) (Profile, error) {
	if p, ok := r.done[name]; ok {
		return p, nil
	}
	if slices.Contains(chain, name) {
		return Profile{}, fmt.Errorf("profile %s: extends loops: %s", name, strings.Join(append(chain, name), " → "))
	}
	defs := r.defs[name]
	var (
		extends string
		from    definition
	)
	for _, d := range defs {
		if d.f.Extends != nil {
			extends, from = *d.f.Extends, d
		}
	}
	var base Profile
	switch {
	case extends != "" && extends != name:
		if !slices.Contains(r.known, extends) {
			return Profile{}, from.errAt("extends", unknownProfile(extends, r.known).Error(), tomlfile.Suggest(extends, r.known))
		}
		parent, err := r.resolve(extends, append(chain, name))
		if err != nil {
			return Profile{}, err
		}
		base = parent.clone()
	default:
		b, ok := builtin(name)
		switch {
		case ok:
			base = b
		case extends == name:
			return Profile{}, from.errAt("extends", fmt.Sprintf("profile %s extends itself and is not a built-in", name), "")
		case len(defs) == 0:
			return Profile{}, unknownProfile(name, r.known)
		default:
			base = Profile{Permissions: map[string]config.Permission{}, Middleware: Middleware{TodoFocus: true, ContextWarning: true}}
		}
	}
	base.Name = name
	for _, d := range defs {
		d.applyTo(&base)
	}
	r.done[name] = base
	return base, nil
}

// Get returns the profile called name, or an error listing the known ones (the
// original silently fell back to default, running with rules the user did not pick).
func (c *Catalog) Get(name string) (Profile, error) {
	if err, bad := c.broken[name]; bad {
		return Profile{}, fmt.Errorf("profile %s: %w", name, err)
	}
	p, ok := c.profiles[name]
	if !ok {
		return Profile{}, unknownProfile(name, c.Names())
	}
	return p.clone(), nil
}

// Names lists every profile, sorted.
func (c *Catalog) Names() []string {
	names := make([]string, 0, len(c.profiles))
	for n := range c.profiles {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Cycle is the Shift+Tab order: default, plan, accept-edits, auto-approve, then the
// other non-subagent profiles sorted by name.
func (c *Catalog) Cycle() []string {
	var out []string
	for _, n := range primaryOrder {
		if p, ok := c.profiles[n]; ok && !p.Subagent {
			out = append(out, n)
		}
	}
	for _, n := range c.Names() {
		if !slices.Contains(primaryOrder, n) && !c.profiles[n].Subagent {
			out = append(out, n)
		}
	}
	return out
}

// Next returns the profile after current in Cycle order, wrapping around; the first
// one when current is not in the cycle (a subagent or an unknown name).
func (c *Catalog) Next(current string) string {
	order := c.Cycle()
	if len(order) == 0 {
		return current
	}
	i := slices.Index(order, current)
	return order[(i+1)%len(order)]
}

func (c *Catalog) breakProfile(name string, err error) {
	c.broken[name] = err
	c.Warnings = append(c.Warnings, fmt.Sprintf("profile %s is unusable (other profiles work): %v", name, err))
}
