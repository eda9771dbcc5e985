// Package skill finds the user's and the project's skills (folders holding a SKILL.md:
// front matter with a name and a description, then instructions), lists them for the
// system prompt, and loads one on demand through the skill tool, so the model reads a
// skill's instructions only when a task needs them.
package skill

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/etalab-ia/albert-code/internal/tool"
)

// FileName is the file that makes a folder a skill.
const FileName = "SKILL.md"

// Skill is one skill found on disk.
type Skill struct {
	Name        string
	Description string
	// AllowedTools are the tools the skill says it needs, as written: shown to the
	// model and, once the skill is loaded, run without asking (see PreApproved).
	// They pre-approve; they never restrict the other tools.
	AllowedTools []string
	// Path is the SKILL.md; Dir the folder that holds it and its other files.
	Path, Dir string
	// Body is the instructions after the front matter.
	Body string
	// UserInvocable makes the skill a slash command of its name, as in Claude
	// Code (the default; "user-invocable: false" turns it off).
	UserInvocable bool
}

// Options say where to look and what to keep.
type Options struct {
	// Dirs are folders of skills (each skill a subfolder), highest priority first:
	// when two define one name, the first wins. A missing folder is skipped.
	Dirs []string
	// Enabled, when not empty, keeps only the skills whose names match; Disabled
	// drops those that match.
	Enabled, Disabled []string
}

// Discover reads every skill in o.Dirs. A skill it cannot read (broken front matter,
// a bad name) is skipped with a warning naming its file; the others are kept.
func Discover(o Options) ([]Skill, []string, error) {
	enabled, err := tool.ParseNamePatterns(o.Enabled)
	if err != nil {
		return nil, nil, err
	}
	disabled, err := tool.ParseNamePatterns(o.Disabled)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	var skills []Skill
	var warnings []string
	for _, dir := range o.Dirs {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("skills folder %s: %v", dir, err))
			continue
		}
		for _, e := range entries {
			path := filepath.Join(dir, e.Name(), FileName)
			if !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
				continue
			}
			s, err := load(path)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("skill %s skipped: %v", path, err))
				continue
			}
			if seen[s.Name] || len(enabled) > 0 && !tool.MatchAny(enabled, s.Name) || tool.MatchAny(disabled, s.Name) {
				continue
			}
			seen[s.Name] = true
			skills = append(skills, s)
		}
	}
	sort.Slice(skills, func(i, j int) bool { return skills[i].Name < skills[j].Name })
	return skills, warnings, nil
}

func load(path string) (Skill, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Skill{}, err
	}
	fm, body, err := parse(data)
	if err != nil {
		return Skill{}, err
	}
	allowed, err := fm.allowedTools()
	if err != nil {
		return Skill{}, err
	}
	return Skill{Name: fm.Name, Description: fm.Description, AllowedTools: allowed,
		Path: path, Dir: filepath.Dir(path), Body: body, UserInvocable: fm.UserInvocable == nil || *fm.UserInvocable}, nil
}
