// Package claude drives Claude Code in print mode and reads its stream-json records.
package claude

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// Adapter drives Claude Code in print mode with its NDJSON output
// (`claude -p --output-format stream-json --verbose`), every permission granted: the
// workspace is the agent's to change. Tested with Claude Code 2.1.328.
//
// Claude Code refuses to grant every permission as root unless told it runs in a
// sandbox (IS_SANDBOX=1). The adapter says so only when Sandboxed is set; CheckRoot
// refuses, at serve's start, to run it as root otherwise.
type Adapter struct {
	// Binary is the program to run; empty means "claude".
	Binary string
	// Sandboxed says the agent runs confined: serve's OS sandbox confines it, or serve
	// was told it runs in a container or VM that is the sandbox (the setting
	// ALBERT_CODE_SANDBOXED=1, serve's Config.Sandboxed).
	Sandboxed bool
	// Geteuid reports the server's effective user id; nil means os.Geteuid.
	Geteuid func() int
}

func (c *Adapter) Name() string { return "claude" }

// Run runs the agent as a supervised process (RunProcess).
func (c *Adapter) Run(ctx context.Context, req *backend.Request, emit func(backend.Event)) (backend.Result, error) {
	return cli.RunProcess(ctx, c, req, emit)
}

func (c *Adapter) Models() []string { return []string{"haiku", "sonnet", "opus", "opusplan"} }

func (c *Adapter) ThinkingLevels() []string {
	return []string{"off", "low", "medium", "high", "xhigh", "max"}
}

// ErrAsRoot is CheckRoot's refusal.
var ErrAsRoot = fmt.Errorf("the claude adapter cannot run as root outside a sandbox: " +
	"Claude Code refuses to grant every permission to root (\"--dangerously-skip-permissions cannot be used with root/sudo privileges\"), " +
	"and serve runs it with every permission. Run serve as an unprivileged user; " +
	"or confine the agent with ALBERT_CODE_ADAPTER_SANDBOX=workspace-write; " +
	"or, if serve itself runs in a container or VM that is the sandbox, set ALBERT_CODE_SANDBOXED=1 (--sandboxed)")

// CheckRoot refuses a server running as root unless the agent is Sandboxed: every
// run would fail, so serve refuses to start and says what to do.
func (c *Adapter) CheckRoot() error {
	if c.euid() == 0 && !c.Sandboxed {
		return ErrAsRoot
	}
	return nil
}

func (c *Adapter) euid() int {
	if c.Geteuid != nil {
		return c.Geteuid()
	}
	return os.Geteuid()
}

// Env is base, then IS_SANDBOX=1 when the server is root and the agent Sandboxed
// (Claude Code's own switch for that case), then req.Env.
func (c *Adapter) Env(req *backend.Request, base []string) []string {
	vars := map[string]string{}
	if c.euid() == 0 && c.Sandboxed {
		vars["IS_SANDBOX"] = "1"
	}
	env := cli.MergeEnv(base, vars)
	return cli.MergeEnv(env, req.Env)
}

func (c *Adapter) BuildArgv(req *backend.Request) ([]string, error) {
	argv := []string{cmp.Or(c.Binary, "claude"), "-p", "--output-format", "stream-json", "--verbose",
		"--permission-mode", "bypassPermissions"}
	if req.Model != "" {
		argv = append(argv, "--model", req.Model)
	}
	// The original listed thinking levels but never passed them on.
	if req.Thinking != "" && req.Thinking != "off" {
		argv = append(argv, "--effort", req.Thinking)
	}
	switch {
	case req.EventMode == backend.EventsFull:
		argv = append(argv, "--include-partial-messages", "--forward-subagent-text", "--include-hook-events")
	case req.StreamTokens:
		argv = append(argv, "--include-partial-messages")
	}
	if req.AppendSystemPrompt != "" {
		argv = append(argv, "--append-system-prompt", req.AppendSystemPrompt)
	}
	if req.SystemPrompt != "" {
		argv = append(argv, "--system-prompt", req.SystemPrompt)
	}
	if len(req.JSONSchema) > 0 {
		argv = append(argv, "--json-schema", cli.CompactJSON(req.JSONSchema))
	}
	switch {
	case req.Resume != "":
		argv = append(argv, "--resume", req.Resume)
	case req.Continue:
		argv = append(argv, "--continue")
	}
	// --tools sets the built-in tools the model is offered; --allowedTools and
	// --disallowedTools only pre-answer permission prompts, which bypassPermissions
	// never asks, so with them the model still saw every tool.
	switch {
	case req.NoTools:
		argv = append(argv, "--tools", "")
	case len(req.ToolsAllowlist) > 0:
		argv = append(argv, "--tools", strings.Join(req.ToolsAllowlist, ","))
	}
	return append(argv, req.ExtraArgs...), nil
}
