package config

import (
	"fmt"
	"regexp"
)

// AgentLoop holds the top-level keys that shape a conversation beyond the model: the
// original tool's auto-continue, project context and custom system prompts.
type AgentLoop struct {
	// AutoContinue is how many times per prompt the model is sent back to work when
	// it stops with open todos (key auto_continue); 0 turns it off.
	AutoContinue int
	// ProjectContext adds a short summary of the folder and its git state to the
	// system prompt (key project_context).
	ProjectContext bool
	// SystemPromptID names <id>.md in a prompts/ folder that replaces the built-in
	// base prompt (key system_prompt_id); empty keeps the built-in.
	SystemPromptID string
}

type agentLoopLayer struct {
	AutoContinue   *int    `toml:"auto_continue"`
	ProjectContext *bool   `toml:"project_context"`
	SystemPromptID *string `toml:"system_prompt_id"`
}

// maxAutoContinue bounds auto_continue: past a few rounds a model that keeps stopping
// is stuck, not forgetful (judgement; the original used 3).
const maxAutoContinue = 20

// promptID is a file name without its .md: no path separators, no leading dot.
var promptID = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)

func (c *Config) applyAgentLoop(l *agentLoopLayer, o origin) error {
	return c.runSteps(o,
		key("auto_continue", l.AutoContinue, &c.AgentLoop.AutoContinue, func(n int) (int, error) {
			if n < 0 || n > maxAutoContinue {
				return n, hinted{fmt.Sprintf("invalid auto_continue %d", n), fmt.Sprintf("want 0 (off) to %d continues per prompt", maxAutoContinue)}
			}
			return n, nil
		}),
		key("project_context", l.ProjectContext, &c.AgentLoop.ProjectContext, keep),
		key("system_prompt_id", l.SystemPromptID, &c.AgentLoop.SystemPromptID, func(id string) (string, error) {
			if id != "" && !promptID.MatchString(id) {
				return id, hinted{fmt.Sprintf("invalid system_prompt_id %q", id), "name a file of a prompts/ folder without its .md, such as \"review\""}
			}
			return id, nil
		}),
	)
}
