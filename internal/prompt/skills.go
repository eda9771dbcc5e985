package prompt

import (
	"fmt"
	"strings"
)

// Skill is one entry of the skills list the model reads: enough to know when to load
// it with the skill tool, not its instructions (those cost tokens only when used).
type Skill struct {
	Name        string
	Description string
}

func writeSkills(b *strings.Builder, skills []Skill) {
	if len(skills) == 0 {
		return
	}
	b.WriteString("\n# Skills\n")
	b.WriteString("Skills are instructions written for particular tasks. When the task at hand matches one, " +
		"load it with the skill tool before starting, then follow it.\n")
	for _, s := range skills {
		fmt.Fprintf(b, "- %s: %s\n", s.Name, strings.Join(strings.Fields(s.Description), " "))
	}
}
