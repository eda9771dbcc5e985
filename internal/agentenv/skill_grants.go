package agentenv

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/permission"
	"github.com/etalab-ia/albert-code/internal/permission/shellcmd"
	"github.com/etalab-ia/albert-code/internal/skill"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// withSkillGrants makes the run's skill tool pre-approve, in policy, the tools a
// loaded skill lists in allowed-tools (Claude Code's semantics: they run without
// asking while the skill is active; nothing is restricted). A grant is a session
// grant, so the trust rule, deny rules, permission = "never" and the bash
// classifier's refusals still win, and a read-only profile pre-approves nothing
// that changes things. A Bash(…) entry approves only the commands it names. Skills
// the resumed history already loaded are active again.
// The returned activate does for a skill the user invokes (/name) what loading it
// does; it is nil when the run has no skill tool.
func (e *Env) withSkillGrants(reg *tool.Registry, policy *permission.Policy, history []llm.Message) (*tool.Registry, func(skill.Skill), error) {
	if _, ok := reg.Get(skill.ToolName); !ok {
		return reg, nil, nil
	}
	var available []string
	for _, t := range reg.All() {
		// A read-only profile pre-approves nothing that changes things, whatever
		// tools it keeps.
		if i := t.Info(); i.ReadOnly || !e.Profile.ReadOnly {
			available = append(available, i.Name)
		}
	}
	bash := e.skillBash(policy)
	onLoad := func(s skill.Skill) []string {
		approved := skill.PreApproved(s.AllowedTools, available)
		for _, name := range approved {
			policy.GrantForSession(name)
		}
		if prefixes := skill.BashPrefixes(s.AllowedTools); len(prefixes) > 0 && slices.Contains(available, "bash") {
			bash.allow(prefixes)
			for _, p := range prefixes {
				approved = append(approved, "bash: "+p)
			}
		}
		return approved
	}
	skills := e.skillsFor()
	for _, name := range loadedSkills(history) {
		for _, s := range skills {
			if s.Name == name {
				onLoad(s)
			}
		}
	}
	reg, err := overrideTools(reg, []tool.Tool{skill.NewTool(skills, onLoad)})
	return reg, func(s skill.Skill) { onLoad(s) }, err
}

// skillBash approves the bash commands that loaded skills scope with Bash(…)
// entries. It wraps the bash classifier before the agent exists (the policy's map is
// not changed afterwards); the classifier's refusals still win.
type skillBash struct {
	allowConf, denyConf []string // [tools.bash] allow and deny

	mu       sync.Mutex
	prefixes []string
	rules    *shellcmd.Rules // nil until a skill scopes a command
}

func (e *Env) skillBash(policy *permission.Policy) *skillBash {
	conf := e.Config.Tool("bash")
	sb := &skillBash{allowConf: conf.Allow, denyConf: conf.Deny}
	orig := policy.Classifiers["bash"]
	policy.Classifiers["bash"] = func(args json.RawMessage) (permission.Verdict, bool) {
		var v permission.Verdict
		ok := false
		if orig != nil {
			v, ok = orig(args)
		}
		if ok && v.Level == permission.Never {
			return v, ok
		}
		sb.mu.Lock()
		rules := sb.rules
		sb.mu.Unlock()
		if rules != nil {
			if sv, sok := rules.ClassifyCall(args); sok && sv.Level == permission.Always {
				return permission.Verdict{Level: permission.Always, Reason: "pre-approved by a loaded skill"}, true
			}
		}
		return v, ok
	}
	return sb
}

// allow adds command prefixes to those the skills approved.
func (sb *skillBash) allow(prefixes []string) {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	sb.prefixes = append(sb.prefixes, prefixes...)
	rules := shellcmd.Defaults().With(append(slices.Clone(sb.allowConf), sb.prefixes...), sb.denyConf)
	sb.rules = &rules
}

// loadedSkills are the names of the skills the skill tool loaded in history.
func loadedSkills(history []llm.Message) []string {
	failed := map[string]bool{}
	for _, m := range history {
		if m.Role == llm.RoleTool && m.IsError {
			failed[m.ToolCallID] = true
		}
	}
	var names []string
	for _, m := range history {
		for _, c := range m.ToolCalls {
			if c.Name != skill.ToolName || failed[c.ID] {
				continue
			}
			var p struct {
				Name string `json:"name"`
			}
			if json.Unmarshal([]byte(c.Arguments), &p) == nil && p.Name != "" {
				names = append(names, strings.TrimSpace(p.Name))
			}
		}
	}
	return names
}
