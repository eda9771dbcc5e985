package sensitive

// controlReasons say, per rule, why a change to a control file needs a person's
// approval: what the file makes run later.
var controlReasons = map[string]string{
	RuleGitDir:         "a .git file or folder tells git where its config and hooks are",
	RuleGitConfig:      "git runs programs named there (core.fsmonitor, diff.external, core.pager)",
	RuleGitHooks:       "git runs these hooks on commit, checkout and merge",
	RuleGitCommonDir:   "it points git at another folder, whose config and hooks git then uses",
	RuleGitWorktreeCfg: "git reads it as config, which runs programs (core.fsmonitor)",
	RuleGitModules:     "the submodules' git folders, whose config and hooks run programs when git enters them",
	RuleGitWorktrees:   "linked worktrees' git folders, whose config and hooks run programs",
	RuleGitHooksPath:   "the repository's config names this folder for its hooks, which git runs on commit, checkout and merge",
	RuleProject:        "it sets tool permissions, MCP servers and hooks for every later run here",
	RuleProjectDir:     "its profiles, skills and hooks arm every later run here",
	RuleVibe:           "it sets tool permissions, MCP servers and hooks for every later run here",
	RuleVibeDir:        "its tools, skills and hooks arm every later run here",
	RuleMCPServers:     "editors and agents start the MCP servers listed there",
}

// ControlReason explains a rule returned by Control, for a person deciding.
func ControlReason(rule string) string {
	if r, ok := controlReasons[rule]; ok {
		return rule + ": " + r
	}
	return rule
}
