package sensitive

import (
	"path/filepath"
	"strings"
)

// Control files, named by the rule that protects them. Each is matched by path
// components anywhere in the workspace, since a nested repository's .git/config or a
// subfolder's .albert-code.toml is read as well as the top-level one.
const (
	RuleGitDir    = ".git"          // a .git file points git at another folder
	RuleGitConfig = ".git/config"   // core.fsmonitor, diff.external, core.pager run programs
	RuleGitHooks  = ".git/hooks/**" // run by commit, checkout, merge...
	// git reads its config through these too: commondir names the folder whose
	// config and hooks it uses, config.worktree is config, and a submodule's or a
	// linked worktree's git folder has config and hooks of its own.
	RuleGitCommonDir   = ".git/commondir"
	RuleGitWorktreeCfg = ".git/config.worktree"
	RuleGitModules     = ".git/modules/**"
	RuleGitWorktrees   = ".git/worktrees/**"
	RuleProject        = ".albert-code.toml" // tool permissions, MCP servers, hooks
	RuleProjectDir     = ".albert-code/**"   // profiles, skills, hooks
	RuleVibe           = ".vibe.toml"        // the original's project file, which we read
	RuleVibeDir        = ".vibe/**"          // the original's project folder
	RuleMCPServers     = ".mcp.json"         // MCP servers started by editors and agents
)

// TopLevelControl are the control paths directly at a workspace's root, relative to
// it: what the sandbox keeps read-only and checks after every command.
var TopLevelControl = []string{".git/config", ".git/hooks", ".git/commondir", ".git/config.worktree", ".git/modules",
	".git/worktrees", ".albert-code.toml", ".albert-code", ".vibe.toml", ".vibe", ".mcp.json"}

// Control reports whether path (absolute, links resolved) is a control file below
// workDir, and returns the rule it matches. Paths outside workDir are not control
// files of this workspace: reaching them is governed by the outside-workspace rule.
func Control(workDir, path string) (string, bool) {
	rel, err := filepath.Rel(filepath.Clean(workDir), filepath.Clean(path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	if rel == "." {
		return "", false
	}
	if hooks := HooksDir(workDir); hooks != "" && Within(hooks, filepath.Clean(path)) {
		return RuleGitHooksPath, true
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i, p := range parts {
		last := i == len(parts)-1
		switch p {
		case ".git":
			if last {
				return RuleGitDir, true
			}
			switch parts[i+1] {
			case "config":
				if i+2 == len(parts) {
					return RuleGitConfig, true
				}
			case "hooks":
				return RuleGitHooks, true
			case "commondir":
				if i+2 == len(parts) {
					return RuleGitCommonDir, true
				}
			case "config.worktree":
				if i+2 == len(parts) {
					return RuleGitWorktreeCfg, true
				}
			case "modules":
				return RuleGitModules, true
			case "worktrees":
				return RuleGitWorktrees, true
			}
		case ".albert-code.toml":
			if last {
				return RuleProject, true
			}
		case ".vibe.toml":
			if last {
				return RuleVibe, true
			}
		case ".mcp.json":
			if last {
				return RuleMCPServers, true
			}
		case ".albert-code":
			return RuleProjectDir, true
		case ".vibe":
			return RuleVibeDir, true
		}
	}
	return "", false
}
