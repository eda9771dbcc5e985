package agentenv

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/etalab-ia/albert-code/internal/prompt"
	"github.com/etalab-ia/albert-code/internal/skill"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// skillSet is the skills of an Env, found once and shared by its copies.
type skillSet struct {
	once     sync.Once
	skills   []skill.Skill
	warnings []string
	reported bool
	mu       sync.Mutex
}

// skillsFor finds the skills of e: the folders of [skills] paths, then the project's
// .albert-code/skills and .agents/skills from the working directory up to the
// repository root (trusted folders only: a skill steers the agent), then the user's
// ~/.albert-code/skills. The first skill of a name wins.
func (e *Env) skillsFor() []skill.Skill {
	s := e.skillSet
	if s == nil {
		return nil
	}
	s.once.Do(func() {
		var err error
		s.skills, s.warnings, err = skill.Discover(skill.Options{Dirs: e.skillDirs(),
			Enabled: e.Config.Skills.Enabled, Disabled: e.Config.Skills.Disabled})
		if err != nil {
			s.warnings = append(s.warnings, "skills: "+err.Error())
		}
	})
	return s.skills
}

// takeSkillWarnings returns the broken skills' warnings to its first caller only.
func (e *Env) takeSkillWarnings() []string {
	s := e.skillSet
	if s == nil {
		return nil
	}
	e.skillsFor()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reported {
		return nil
	}
	s.reported = true
	return s.warnings
}

// extensionTools are the tools the session adds to the built-ins: the skill tool
// when there are skills, and the MCP servers' tools once a run started them.
func (e *Env) extensionTools() []tool.Tool {
	var out []tool.Tool
	if skills := e.skillsFor(); len(skills) > 0 {
		out = append(out, skill.NewTool(skills, nil))
	}
	if e.mcp != nil {
		out = append(out, e.mcp.tools()...)
	}
	return out
}

func (e *Env) skillDirs() []string {
	dirs := append([]string(nil), e.Config.Skills.Paths...)
	if e.Trusted {
		for _, d := range projectDirs(e.WorkDir) {
			if e.trustedDir != nil && !e.trustedDir(d) && d != e.WorkDir {
				continue
			}
			dirs = append(dirs, filepath.Join(d, ".albert-code", "skills"), filepath.Join(d, ".agents", "skills"))
		}
	}
	return append(dirs, filepath.Join(e.Config.Home, "skills"))
}

// projectDirs lists dir and its parents up to the repository root (the folder with
// .git), nearest first; outside a repository, dir alone.
func projectDirs(dir string) []string {
	var out []string
	for d := dir; ; {
		out = append(out, d)
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return out
		}
		parent := filepath.Dir(d)
		if parent == d {
			return out[:1]
		}
		d = parent
	}
}

// promptSkills is the skills list of the system prompt: none when the run offers no
// skill tool (no tools, or a profile or filter without it).
func (e *Env) promptSkills(reg *tool.Registry) []prompt.Skill {
	if reg == nil {
		return nil
	}
	if _, ok := reg.Get(skill.ToolName); !ok {
		return nil
	}
	skills := e.skillsFor()
	out := make([]prompt.Skill, 0, len(skills))
	for _, s := range skills {
		out = append(out, prompt.Skill{Name: s.Name, Description: s.Description})
	}
	return out
}
