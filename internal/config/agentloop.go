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
	if l.AutoContinue != nil {
		if n := *l.AutoContinue; n < 0 || n > maxAutoContinue {
			return fieldError(o, "auto_continue", "auto_continue", fmt.Sprintf("invalid auto_continue %d", n),
				fmt.Sprintf("want 0 (off) to %d continues per prompt", maxAutoContinue))
		}
		c.AgentLoop.AutoContinue = *l.AutoContinue
		c.sources["auto_continue"] = o("auto_continue")
	}
	if l.ProjectContext != nil {
		c.AgentLoop.ProjectContext = *l.ProjectContext
		c.sources["project_context"] = o("project_context")
	}
	if l.SystemPromptID != nil {
		id := *l.SystemPromptID
		if id != "" && !promptID.MatchString(id) {
			return fieldError(o, "system_prompt_id", "system_prompt_id", fmt.Sprintf("invalid system_prompt_id %q", id),
				"name a file of a prompts/ folder without its .md, such as \"review\"")
		}
		c.AgentLoop.SystemPromptID = id
		c.sources["system_prompt_id"] = o("system_prompt_id")
	}
	return nil
}
