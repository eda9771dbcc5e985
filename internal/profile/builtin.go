package profile

import "github.com/etalab-ia/albert-code/internal/config"

// Names of the built-in profiles (notes §2.6).
const (
	Default     = "default"
	Plan        = "plan"
	AcceptEdits = "accept-edits"
	AutoApprove = "auto-approve"
	Explore     = "explore"
)

// primaryOrder is the Shift+Tab order of the built-ins, the original's
// AgentManager.get_agent_order (notes §2.3); custom profiles follow, sorted.
var primaryOrder = []string{Default, Plan, AcceptEdits, AutoApprove}

const planPrompt = `You are in plan mode. Do not change any file and do not run commands that change
the system. Read and search the code, ask the user what is unclear, then answer with a
numbered plan: the files to change, the change in each, and how to check it works. The
user leaves plan mode to carry it out.`

const explorePrompt = `You are a read-only explorer working for another agent. Find what you are asked
for with read, grep and glob, and answer with file paths, line numbers and short quotes.
Be brief: your whole answer goes into the other agent's context.`

// Builtins returns fresh copies of the built-in profiles.
func Builtins() []Profile {
	helpers := Middleware{TodoFocus: true, ContextWarning: true}
	return []Profile{
		{Name: Default, Description: "Asks before each tool call that needs permission.", Middleware: helpers},
		{
			Name: Plan, Description: "Read-only: explores and writes a plan, changes nothing.",
			ReadOnly: true,
			// The read-only tools of the original's plan profile (notes §2.6), with
			// the tool names of this implementation, plus glob and the web tools,
			// which only read.
			AllowedTools: []string{"read", "grep", "glob", "todo", "ask_user_question", "task", "web_fetch", "web_search", "code_graph"},
			SystemPrompt: planPrompt,
			Middleware:   Middleware{TodoFocus: true, ContextWarning: true, ReadOnlyGuard: true},
		},
		{
			Name: AcceptEdits, Description: "File writes and edits run without asking; the rest asks.",
			Permissions: map[string]config.Permission{"write": config.PermissionAlways, "edit": config.PermissionAlways},
			Middleware:  helpers,
		},
		{Name: AutoApprove, Description: "Every tool runs without asking.", AutoApprove: true, Middleware: helpers},
		{
			Name: Explore, Description: "Sub-agent that searches the code and reports.",
			ReadOnly: true, Subagent: true, AllowedTools: []string{"read", "grep", "glob"},
			SystemPrompt: explorePrompt,
		},
	}
}

func builtin(name string) (Profile, bool) {
	for _, p := range Builtins() {
		if p.Name == name {
			p.Sources = []string{"built-in"}
			if p.Permissions == nil {
				p.Permissions = map[string]config.Permission{}
			}
			return p, true
		}
	}
	return Profile{}, false
}
