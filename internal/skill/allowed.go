package skill

import (
	"slices"
	"strings"
)

// claudeNames are Claude Code's names for the tools we have under other names, so
// skills written for it pre-approve the same tools here.
var claudeNames = map[string]string{
	"Read": "read", "Write": "write", "Edit": "edit", "MultiEdit": "edit", "Bash": "bash",
	"Grep": "grep", "Glob": "glob", "WebFetch": "web_fetch", "WebSearch": "web_search",
	"TodoWrite": "todo", "Task": "task",
}

// PreApproved maps the entries of a skill's allowed-tools to the names of the
// available tools they pre-approve: our names (any case), Claude Code's names
// (Read, Bash, …) and its MCP form mcp__<server>__<tool>. An entry scoped to some
// arguments, such as Bash(git status:*), does not pre-approve the whole tool (see
// BashPrefixes). Entries naming no available tool are skipped.
func PreApproved(entries, available []string) []string {
	var out []string
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" || strings.ContainsAny(e, "()") {
			continue
		}
		name := e
		if n, ok := claudeNames[e]; ok {
			name = n
		} else if server, tool, ok := strings.Cut(strings.TrimPrefix(e, "mcp__"), "__"); ok && strings.HasPrefix(e, "mcp__") {
			name = server + "_" + tool
		}
		i := slices.IndexFunc(available, func(a string) bool { return strings.EqualFold(a, name) })
		if i >= 0 && !slices.Contains(out, available[i]) {
			out = append(out, available[i])
		}
	}
	return out
}

// BashPrefixes are the commands the Bash(…) entries of allowed-tools pre-approve, as
// command prefixes of whole words: Bash(git status:*) and Bash(git status) both give
// "git status", which approves `git status -s` but not `git push`. Claude Code
// matches Bash(cmd) exactly; a prefix is a little wider, and the bash classifier
// still checks every command of a line (`git status; rm x` is not approved).
func BashPrefixes(entries []string) []string {
	var out []string
	for _, e := range entries {
		inner, ok := strings.CutPrefix(strings.TrimSpace(e), "Bash(")
		if !ok {
			inner, ok = strings.CutPrefix(strings.TrimSpace(e), "bash(")
		}
		inner, closed := strings.CutSuffix(inner, ")")
		if !ok || !closed {
			continue
		}
		inner = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(inner, "*"), ":"))
		if inner = strings.Join(strings.Fields(inner), " "); inner != "" && !slices.Contains(out, inner) {
			out = append(out, inner)
		}
	}
	return out
}
