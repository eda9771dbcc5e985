package adapter

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Codex drives OpenAI's Codex CLI (`codex exec --json`), the prompt read from stdin
// ("-"), sandbox and approvals off unless tools are disabled.
type Codex struct {
	// Binary is the program to run; empty means "codex".
	Binary string
}

func (c *Codex) Name() string { return "codex" }

func (c *Codex) ThinkingLevels() []string {
	return []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"}
}

// Validate refuses a tool allow-list: Codex has no way to name the tools it may use,
// and the original's silent ignore let a client believe it was restricted.
func (c *Codex) Validate(req *Request) error {
	if len(req.ToolsAllowlist) > 0 {
		return errors.New("codex cannot restrict its tools by name: drop toolsAllowlist, or send noTools to disable them")
	}
	return nil
}

func (c *Codex) BuildArgv(req *Request) ([]string, error) {
	argv := []string{orDefault(c.Binary, "codex"), "exec"}
	switch {
	case req.Resume != "":
		argv = append(argv, "resume", req.Resume)
	case req.Continue:
		argv = append(argv, "resume", "--last") // also fine in a workspace with no session yet
	}
	argv = append(argv, "--json", "--skip-git-repo-check")
	if req.NoTools {
		argv = append(argv, "--sandbox", "read-only")
	} else {
		argv = append(argv, "--dangerously-bypass-approvals-and-sandbox")
	}
	if req.Resume == "" && !req.Continue {
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
	if req.NoTools {
		argv = append(argv, "-c", "features.shell_tool=false", "-c", "web_search=disabled")
	}
	if len(req.JSONSchema) > 0 {
		if req.TempDir == "" {
			return nil, errors.New("codex takes its output schema as a file: the run has no TempDir to write it in")
		}
		// In the run's own folder, removed with it; the original left one per run in /tmp.
		path := filepath.Join(req.TempDir, "codex-output-schema.json")
		if err := os.WriteFile(path, []byte(compactJSON(req.JSONSchema)), 0o600); err != nil {
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

// codexRecord holds the fields read from Codex's exec records: thread.started,
// item.completed, turn.completed, turn.failed and error.
type codexRecord struct {
	Type     string `json:"type"`
	ThreadID string `json:"thread_id"`
	Item     *struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"item"`
	Usage   json.RawMessage `json:"usage"`
	Message string          `json:"message"`
	Error   *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func (r *codexRecord) errorText() string {
	if r.Error != nil && r.Error.Message != "" {
		return r.Error.Message
	}
	return r.Message
}

func (c *Codex) ParseOutput(stdout []byte, _ *Request) Result {
	var res Result
	var texts []string
	var turnFailed, lastError string
	completed := false
	for line := range lines(stdout) {
		var r codexRecord
		if !decodeLine(line, &r) {
			continue // Codex prints "ERROR ..." lines of its own among the records
		}
		switch r.Type {
		case "thread.started":
			res.SessionID = r.ThreadID
		case "item.completed":
			if r.Item != nil && r.Item.Type == "agent_message" {
				texts = append(texts, r.Item.Text)
			}
		case "turn.completed":
			res.Usage.Add(usageFrom(r.Usage))
			completed = true
		case "turn.failed":
			turnFailed = r.errorText()
		case "error":
			lastError = r.errorText()
		}
	}
	res.Text = strings.Join(texts, "\n")
	// An "error" record followed by a completed turn was a retry that worked
	// (Codex reports its reconnections that way): not a failure.
	switch {
	case turnFailed != "":
		res.ProviderError = turnFailed
	case lastError != "" && !completed:
		res.ProviderError = lastError
	}
	if completed {
		res.StopReason = "stop"
	}
	return res
}

func (c *Codex) NewStream(*Request) Stream { return &codexStream{} }

// codexStream remembers whether a message was streamed, to separate the next one
// by a newline as ParseOutput does.
type codexStream struct{ messages int }

func (s *codexStream) Line(line []byte) []Event {
	var r codexRecord
	if !decodeLine(line, &r) {
		return nil
	}
	switch r.Type {
	case "thread.started":
		return []Event{{Kind: EventSession, SessionID: r.ThreadID}}
	case "item.completed":
		if r.Item != nil && r.Item.Type == "agent_message" {
			text := r.Item.Text
			if s.messages++; s.messages > 1 {
				text = "\n" + text
			}
			return []Event{{Kind: EventDelta, Text: text}}
		}
	case "turn.completed":
		u := usageFrom(r.Usage)
		return []Event{{Kind: EventUsage, Usage: &u}}
	case "turn.failed", "error":
		return []Event{{Kind: EventError, Text: r.errorText()}}
	}
	return nil
}
