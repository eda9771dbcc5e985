package config

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
)

// HookEvent names when a hook runs.
type HookEvent string

const (
	// HookBeforeTool runs before a tool call, after its arguments parse and before
	// the permission check: it may allow it, deny it with a reason, or rewrite its
	// arguments (which the permission check then sees).
	HookBeforeTool HookEvent = "before_tool"
	// HookAfterTool runs once a call has a result; it may turn the result into an
	// error the model reads (a linter that fails after an edit).
	HookAfterTool HookEvent = "after_tool"
	// HookAfterTurn runs when the agent has finished answering a prompt.
	HookAfterTurn HookEvent = "after_turn"
)

// Hook is one [[hooks.<event>]] entry: a command run with a JSON description of the
// event on stdin, whose stdout may carry a decision.
type Hook struct {
	Event HookEvent
	// Command is run by sh -c in the working directory.
	Command string
	// Tools limits a tool hook to the tools whose names match (exact, glob or re:);
	// empty matches every tool.
	Tools []string
	// Timeout bounds the command; past it the command is killed and reported.
	Timeout time.Duration
	// FailClosed denies the call when a before_tool hook fails or times out
	// (on_failure = "deny"); by default the call goes on and the failure is reported.
	FailClosed bool
	// Source says where the hook was written, for the messages that report it.
	Source string
}

// DefaultHookTimeout bounds a hook that sets no timeout: long enough for a linter on
// one file, short enough that a hung hook does not stall a turn for long (judgement).
const DefaultHookTimeout = 30 * time.Second

type hooksLayer struct {
	BeforeTool []hookLayer `toml:"before_tool"`
	AfterTool  []hookLayer `toml:"after_tool"`
	AfterTurn  []hookLayer `toml:"after_turn"`
}

type hookLayer struct {
	Command   *string   `toml:"command"`
	Tools     *[]string `toml:"tools"`
	Timeout   *string   `toml:"timeout"`
	OnFailure *string   `toml:"on_failure"`
}

var hookFailureModes = []string{"allow", "deny"}

// applyHooks appends the layer's hooks to those of the layers below: unlike other
// lists, a project's hooks add to the user's rather than replace them, so a project
// cannot drop a guard the user set for every folder.
func (c *Config) applyHooks(l *hooksLayer, o origin) error {
	for _, group := range []struct {
		event HookEvent
		hooks []hookLayer
	}{{HookBeforeTool, l.BeforeTool}, {HookAfterTool, l.AfterTool}, {HookAfterTurn, l.AfterTurn}} {
		for i, hl := range group.hooks {
			raw := fmt.Sprintf("hooks.%s[%d]", group.event, i)
			h, err := parseHook(group.event, hl, raw, o)
			if err != nil {
				return err
			}
			c.Hooks = append(c.Hooks, h)
		}
	}
	return nil
}

func parseHook(event HookEvent, l hookLayer, raw string, o origin) (Hook, error) {
	h := Hook{Event: event, Timeout: DefaultHookTimeout, Source: o(raw).String()}
	if l.Command == nil || strings.TrimSpace(*l.Command) == "" {
		return Hook{}, fieldError(o, raw, raw, "a hook needs a command", "")
	}
	h.Command = *l.Command
	if l.Tools != nil {
		if event == HookAfterTurn {
			return Hook{}, fieldError(o, raw+".tools", raw+".tools", "after_turn hooks run once per prompt, not per tool: remove tools", "")
		}
		tools, err := toolPatterns(*l.Tools)
		if err != nil {
			return Hook{}, fieldError(o, raw+".tools", raw+".tools", err.Error(), "")
		}
		h.Tools = tools
	}
	if l.Timeout != nil {
		d, err := parseDuration(*l.Timeout)
		if err != nil {
			return Hook{}, fieldError(o, raw+".timeout", raw+".timeout", err.Error(), "")
		}
		h.Timeout = d
	}
	if l.OnFailure != nil {
		if !slices.Contains(hookFailureModes, *l.OnFailure) {
			return Hook{}, fieldError(o, raw+".on_failure", raw+".on_failure",
				fmt.Sprintf("invalid value %q: want allow or deny", *l.OnFailure), tomlfile.Suggest(*l.OnFailure, hookFailureModes))
		}
		if event != HookBeforeTool && *l.OnFailure == "deny" {
			return Hook{}, fieldError(o, raw+".on_failure", raw+".on_failure", "only before_tool hooks can deny a call", "")
		}
		h.FailClosed = *l.OnFailure == "deny"
	}
	return h, nil
}
