// Package codex drives OpenAI's Codex CLI (codex exec --json) and reads its records.
package codex

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// Adapter drives OpenAI's Codex CLI (`codex exec --json`, tested with 0.169.0), the
// prompt read from stdin ("-"), sandbox and approvals off unless tools are disabled.
type Adapter struct {
	// Binary is the program to run; empty means "codex".
	Binary string
}

func (c *Adapter) Name() string { return "codex" }

// Run runs the agent as a supervised process (RunProcess).
func (c *Adapter) Run(ctx context.Context, req *backend.Request, emit func(backend.Event)) (backend.Result, error) {
	return cli.RunProcess(ctx, c, req, emit)
}

func (c *Adapter) ThinkingLevels() []string {
	return []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"}
}

// Validate refuses a tool allow-list: Codex has no way to name the tools it may use,
// and the original's silent ignore let a client believe it was restricted.
func (c *Adapter) Validate(req *backend.Request) error {
	if len(req.ToolsAllowlist) > 0 {
		return errors.New("codex cannot restrict its tools by name: drop toolsAllowlist, or send noTools to disable them")
	}
	return nil
}

// codexEphemeral reports a run that starts a fresh thread: it runs --ephemeral, so
// Codex keeps no rollout of it and the thread cannot be resumed afterwards.
func codexEphemeral(req *backend.Request) bool { return req.Resume == "" && !req.Continue }

// codexNoTools are the -c settings that take Codex's tools away: its sandbox
// read-only (`codex exec resume` has no --sandbox flag, but every form of exec reads
// sandbox_mode), the shell and web search off. What 0.169.0 still offers
// (view_image, request_user_input, goals, multi_agent_v1, which no setting removes)
// runs no command and writes nothing under read-only.
var codexNoTools = []string{
	"-c", `sandbox_mode="read-only"`,
	"-c", "features.shell_tool=false",
	"-c", "web_search=disabled",
}

func (c *Adapter) BuildArgv(req *backend.Request) ([]string, error) {
	argv := []string{cmp.Or(c.Binary, "codex"), "exec"}
	switch {
	case req.Resume != "":
		argv = append(argv, "resume", req.Resume)
	case req.Continue:
		argv = append(argv, "resume", "--last") // also fine in a workspace with no session yet
	}
	argv = append(argv, "--json", "--skip-git-repo-check")
	if req.NoTools {
		argv = append(argv, codexNoTools...)
	} else {
		argv = append(argv, "--dangerously-bypass-approvals-and-sandbox")
	}
	if codexEphemeral(req) {
		argv = append(argv, "--ephemeral")
	}
	if req.Model != "" {
		argv = append(argv, "--model", req.Model)
	}
	if req.Thinking != "" {
		argv = append(argv, "-c", "model_reasoning_effort="+req.Thinking)
	}
	// -c values are TOML: quoted, or a prompt such as "true" or "[x]" would change type.
	if req.SystemPrompt != "" {
		argv = append(argv, "-c", "instructions="+tomlString(req.SystemPrompt))
	}
	if req.AppendSystemPrompt != "" {
		argv = append(argv, "-c", "developer_instructions="+tomlString(req.AppendSystemPrompt))
	}
	if len(req.JSONSchema) > 0 {
		if req.TempDir == "" {
			return nil, errors.New("codex takes its output schema as a file: the run has no TempDir to write it in")
		}
		// In the run's own folder, removed with it; the original left one per run in /tmp.
		path := filepath.Join(req.TempDir, "codex-output-schema.json")
		if err := os.WriteFile(path, []byte(cli.CompactJSON(req.JSONSchema)), 0o600); err != nil {
			return nil, fmt.Errorf("write codex output schema: %w", err)
		}
		argv = append(argv, "--output-schema", path)
	}
	argv = append(argv, req.ExtraArgs...)
	return append(argv, "-"), nil
}

// tomlString quotes s as a TOML basic string; JSON's escapes are a subset of TOML's.
func tomlString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func (c *Adapter) ParseOutput(stdout []byte, req *backend.Request) backend.Result {
	p := newCodexReader(req)
	for line := range cli.Lines(stdout) {
		p.line(line)
	}
	return p.result()
}

func (c *Adapter) NewStream(req *backend.Request) cli.Stream { return newCodexReader(req) }

// Env pins CODEX_HOME in the request's environment when the run resumes a thread, so
// that ParseOutput finds the thread's rollout (see codexUsageBefore). req.Env is
// copied, never changed in place: it may be shared with the caller.
func (c *Adapter) Env(req *backend.Request, base []string) []string {
	if !codexEphemeral(req) && req.Env["CODEX_HOME"] == "" {
		if home := codexHome(base); home != "" {
			env := maps.Clone(req.Env)
			if env == nil {
				env = map[string]string{}
			}
			env["CODEX_HOME"] = home
			req.Env = env
		}
	}
	return cli.MergeEnv(base, req.Env)
}

// codexHome is where codex keeps its state in an environment: $CODEX_HOME, else
// $HOME/.codex; empty when neither is set.
func codexHome(env []string) string {
	var home string
	for _, kv := range env {
		switch name, value, _ := strings.Cut(kv, "="); name {
		case "CODEX_HOME":
			return value
		case "HOME":
			home = value
		}
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".codex")
}

// WholeMessages reports that codex prints every item whole: its JSON records carry
// no deltas, so a stream has nothing to send until a message is done.
func (c *Adapter) WholeMessages() bool { return true }
