package skill

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/internal/tool"
)

// ToolName is the name of the tool that loads a skill.
const ToolName = "skill"

// maxBody caps the instructions one call returns (judgement: a long skill is still
// well under this; a runaway file must not fill the context).
const maxBody = 64 << 10

// maxFiles bounds the list of a skill folder's other files.
const maxFiles = 50

type loadParams struct {
	Name string `json:"name" jsonschema:"the name of the skill to load, from the list in the system prompt"`
}

// OnLoad is told of each skill the tool loads; it returns the tools it pre-approved
// for the rest of the session, which the model is told.
type OnLoad func(Skill) (approved []string)

// NewTool returns the skill tool over skills; onLoad, if not nil, runs for each
// skill loaded.
func NewTool(skills []Skill, onLoad OnLoad) tool.Tool {
	byName := make(map[string]Skill, len(skills))
	var names []string
	for _, s := range skills {
		byName[s.Name] = s
		names = append(names, s.Name)
	}
	return tool.New(tool.Def[loadParams]{
		Info: tool.Info{
			Name: ToolName,
			Description: "Load a skill: instructions written for a particular kind of task. Call it when the task " +
				"matches a skill listed in the system prompt, before starting, then follow the instructions.",
			ReadOnly: true,
			Kind:     tool.KindRead,
		},
		Run: func(_ context.Context, _ tool.Call, p loadParams) (tool.Result, error) {
			s, ok := byName[strings.TrimSpace(p.Name)]
			if !ok {
				return tool.Errorf("no skill is called %q; the skills are: %s", p.Name, strings.Join(names, ", ")), nil
			}
			var approved []string
			if onLoad != nil {
				approved = onLoad(s)
			}
			out, truncated := tool.Cap(render(s, approved), maxBody)
			return tool.Result{Output: out, Truncated: truncated}, nil
		},
	})
}

// render is what the model reads of a skill: where its files are, what it needs
// and which of those tools now run without asking, then its instructions.
func render(s Skill, approved []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Skill %s, from %s\n", s.Name, s.Path)
	if files := otherFiles(s.Dir); len(files) > 0 {
		fmt.Fprintf(&b, "Its folder %s also holds: %s (read them when the instructions refer to them)\n", s.Dir, strings.Join(files, ", "))
	}
	if len(s.AllowedTools) > 0 {
		fmt.Fprintf(&b, "It expects to use these tools: %s\n", strings.Join(s.AllowedTools, ", "))
	}
	if len(approved) > 0 {
		fmt.Fprintf(&b, "Pre-approved while it is active (no confirmation asked): %s\n", strings.Join(approved, ", "))
	}
	b.WriteString("\n")
	b.WriteString(s.Body)
	return b.String()
}

func otherFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Name() == FileName {
			continue
		}
		name := e.Name()
		if e.IsDir() {
			name += "/"
		}
		out = append(out, name)
	}
	sort.Strings(out)
	if len(out) > maxFiles {
		out = append(out[:maxFiles], fmt.Sprintf("and %d more", len(out)-maxFiles))
	}
	return out
}
