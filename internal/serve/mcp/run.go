package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// RunIn is run_prompt's input: a subset of POST /run's body, under the same names.
type RunIn struct {
	Prompt             string         `json:"prompt" jsonschema:"the task for the agent"`
	Workspace          string         `json:"workspace,omitempty" jsonschema:"a folder under the workspace root, created if missing; empty is the root (with jsonSchema: a fresh folder, removed afterwards)"`
	Model              string         `json:"model,omitempty" jsonschema:"a model the server offers; empty is its default"`
	JSONSchema         map[string]any `json:"jsonSchema,omitempty" jsonschema:"a JSON Schema the answer must satisfy; the answer's json then holds the checked value"`
	SystemPrompt       string         `json:"systemPrompt,omitempty" jsonschema:"replaces the agent's system prompt"`
	AppendSystemPrompt string         `json:"appendSystemPrompt,omitempty" jsonschema:"added to the agent's system prompt"`
	NoContinue         bool           `json:"noContinue,omitempty" jsonschema:"start a new session instead of continuing the workspace's last one"`
	Resume             string         `json:"resume,omitempty" jsonschema:"a session id to resume"`
	Thinking           string         `json:"thinking,omitempty" jsonschema:"a thinking level the model offers"`
	TimeoutSeconds     float64        `json:"timeoutSeconds,omitempty" jsonschema:"the run's total time limit in seconds; the server's default otherwise"`
}

// runAnswer is the part of /run's answer run_prompt reads.
type runAnswer struct {
	Text   string `json:"text"`
	Detail string `json:"detail"`
}

// runPrompt runs the prompt as a sync POST /run: the tool call's context is the
// connection, so a client that cancels the call cancels the run. The SDK handles
// each call in its own goroutine, so a long run holds up nothing else.
func (s *Server) runPrompt(ctx context.Context, _ *mcpsdk.CallToolRequest, in RunIn) (*mcpsdk.CallToolResult, any, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, nil, fmt.Errorf("run_prompt: %w", err)
	}
	status, raw := s.opts.Runs.RunJSON(ctx, body)
	var ans runAnswer
	_ = json.Unmarshal(raw, &ans)
	res := &mcpsdk.CallToolResult{StructuredContent: raw}
	if status == http.StatusOK {
		res.Content = []mcpsdk.Content{&mcpsdk.TextContent{Text: ans.Text}}
		return res, nil, nil
	}
	// A refusal or a failed run: the status and the whole answer (detail, parse
	// error, text so far, usage), for the model to act on.
	res.IsError = true
	msg := fmt.Sprintf("run_prompt failed (HTTP %d %s)", status, http.StatusText(status))
	if ans.Detail != "" {
		msg += ": " + ans.Detail
	}
	res.Content = []mcpsdk.Content{&mcpsdk.TextContent{Text: msg + "\n" + string(raw)}}
	return res, nil, nil
}
