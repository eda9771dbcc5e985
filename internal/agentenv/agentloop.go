package agentenv

import (
	"context"
	"os"
	"path/filepath"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/profile"
	"github.com/etalab-ia/albert-code/internal/prompt"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

// todoItems shows the session's todo list to the middlewares.
func todoItems(todos *builtin.TodoList) func() []agent.Todo {
	return func() []agent.Todo {
		var out []agent.Todo
		for _, it := range todos.Items() {
			out = append(out, agent.Todo{Content: it.Content, Status: string(it.Status)})
		}
		return out
	}
}

// autoContinue is the auto_continue middleware, or nil when it is off. The plan
// profile waits for the user to approve its plan by design: sending it back to work
// would spend calls on a model that may not change anything.
func (e *Env) autoContinue(prof profile.Profile, todos *builtin.TodoList) agent.Middleware {
	n := e.Config.AgentLoop.AutoContinue
	if n <= 0 || todos == nil || prof.Middleware.ReadOnlyGuard {
		return nil
	}
	return &agent.AutoContinue{Max: n, Items: todoItems(todos)}
}

// promptDirs are the prompts/ folders system_prompt_id is looked up in, nearest
// first: the project's .albert-code/prompts up to the repository root, only where
// trusted (a repository must not rewrite the agent's instructions unasked; serve's
// IgnoreProjectFiles trusts none), then the app home's.
func (e *Env) promptDirs() []string {
	var dirs []string
	if e.Trusted && e.trustedDir != nil {
		for _, d := range projectDirs(e.WorkDir) {
			if e.trustedDir(d) {
				dirs = append(dirs, filepath.Join(d, ".albert-code", "prompts"))
			}
		}
	}
	return append(dirs, filepath.Join(e.Config.Home, "prompts"))
}

// customBasePrompt reads the prompt system_prompt_id names; "" keeps the built-in one.
func (e *Env) customBasePrompt() (string, error) {
	text, _, err := prompt.LoadCustom(e.Config.AgentLoop.SystemPromptID, e.promptDirs())
	return text, err
}

// startProjectContext gathers the project context in the background, so git runs
// while the session opens and the tools are built; the returned func waits for it.
// A caller that brings its own system prompt (skip) needs none.
func (e *Env) startProjectContext(skip bool) func() string {
	if skip || !e.Config.AgentLoop.ProjectContext {
		return func() string { return "" }
	}
	done := make(chan string, 1)
	home, _ := os.UserHomeDir()
	go func() {
		done <- prompt.GatherContext(context.Background(), prompt.ContextInput{Dir: e.WorkDir, Home: home, Trusted: e.Trusted})
	}()
	return func() string { return <-done }
}
