package slash

import (
	"context"

	"github.com/etalab-ia/albert-code/internal/skill"
)

// SkillRunner runs a skill as the user's prompt: /skill-name [request].
type SkillRunner interface {
	RunSkill(ctx context.Context, name, request string) error
}

// AddSkills registers a command per user-invocable skill, named and described
// as the skill, in both faces, replacing a skill's command of an earlier call.
// A skill named like another command (/help, /model...) is left out and
// returned: the built-in wins.
func (r *Registry) AddSkills(skills []skill.Skill) (skipped []string) {
	for _, s := range skills {
		if !s.UserInvocable {
			continue
		}
		name := s.Name
		c := Command{Name: name, ArgHint: "[request]", Description: s.Description, Faces: bothFaces, fromSkill: true,
			Run: func(ctx context.Context, h Host, args string) error {
				sr, ok := h.(SkillRunner)
				if !ok {
					return unavailable(name)
				}
				return sr.RunSkill(ctx, name, args)
			}}
		if i, taken := r.byName[name]; taken && r.cmds[i].fromSkill {
			r.cmds[i] = c
			continue
		}
		if err := r.Register(c); err != nil {
			skipped = append(skipped, name)
		}
	}
	return skipped
}
