package config

import (
	"os"
	"path/filepath"
	"strings"
)

// Skills is the [skills] table.
type Skills struct {
	// Paths are extra folders of skills, searched before the project's and the
	// user's; relative paths are resolved against the file that sets them.
	Paths []string
	// Enabled, when not empty, keeps only the skills whose names match; Disabled
	// drops those that match (exact names, globs or re: expressions).
	Enabled, Disabled []string
}

type skillsLayer struct {
	Paths    *[]string `toml:"paths"`
	Enabled  *[]string `toml:"enabled"`
	Disabled *[]string `toml:"disabled"`
}

func (c *Config) applySkills(l *skillsLayer, o origin) error {
	src := o("skills.paths")
	return c.runSteps(o,
		key("skills.paths", l.Paths, &c.Skills.Paths, func(ps []string) ([]string, error) {
			var paths []string
			for _, p := range ps {
				paths = append(paths, resolveSkillPath(p, src))
			}
			return paths, nil
		}),
		key("skills.enabled", l.Enabled, &c.Skills.Enabled, toolPatterns),
		key("skills.disabled", l.Disabled, &c.Skills.Disabled, toolPatterns),
	)
}

// resolveSkillPath expands ~/ and makes a path written in a file relative to it.
func resolveSkillPath(p string, src Source) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, rest)
		}
	}
	if !filepath.IsAbs(p) && src.Kind == SourceFile {
		return filepath.Join(filepath.Dir(src.Name), p)
	}
	return p
}

// applyExtensions merges what extends the agent: MCP servers, hooks and skills.
func (c *Config) applyExtensions(l *layer, o origin) error {
	if l.MCPServers != nil {
		if err := c.applyMCPServers(l.MCPServers, o); err != nil {
			return err
		}
	}
	if l.Hooks != nil {
		if err := c.applyHooks(l.Hooks, o); err != nil {
			return err
		}
	}
	if l.Skills != nil {
		return c.applySkills(l.Skills, o)
	}
	return nil
}
