package config

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Permissions is the [permissions] table: the user's explicit exceptions to the
// protections no profile or approval lifts. It is read from the user's own global
// configuration only; the same table in a project file is ignored (and listed in
// Config.Ignored), since a repository must not be able to unlock itself.
type Permissions struct {
	// AllowSecret are secret paths (absolute or ~/) file tools may reach after all.
	AllowSecret []string
	// AllowControl are globs of control files (.git/config, .albert-code.toml...),
	// relative to the workspace or absolute, whose change need not ask.
	AllowControl []string
}

type permissionsLayer struct {
	AllowSecret  *[]string `toml:"allow_secret"`
	AllowControl *[]string `toml:"allow_control"`
}

func (c *Config) applyPermissions(p *permissionsLayer, o origin) error {
	if p == nil {
		return nil
	}
	src := o("permissions")
	if src.Kind != SourceFile || src.Name != c.globalFile {
		c.Ignored = append(c.Ignored, fmt.Sprintf("%s: [permissions] is read from your global config only (%s)", src, c.globalFile))
		return nil
	}
	return c.runSteps(o,
		key("permissions.allow_secret", p.AllowSecret, &c.Permissions.AllowSecret, func(paths []string) ([]string, error) {
			for _, s := range paths {
				if !filepath.IsAbs(s) && s != "~" && !strings.HasPrefix(s, "~/") {
					return nil, hinted{fmt.Sprintf("%q is not an absolute path", s), "name the secret by its full path, or ~/..."}
				}
			}
			return paths, nil
		}),
		key("permissions.allow_control", p.AllowControl, &c.Permissions.AllowControl, func(globs []string) ([]string, error) {
			for _, g := range globs {
				if !doublestar.ValidatePattern(filepath.ToSlash(g)) {
					return nil, hinted{fmt.Sprintf("%q is not a valid glob", g), "e.g. \".git/hooks/**\" or \".albert-code.toml\""}
				}
			}
			return globs, nil
		}),
	)
}
