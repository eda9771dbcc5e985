package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// RunIn is run_prompt's input: a subset of POST /run's body, under the same names,
// and the original's snake_case names of the same fields, so its clients work
// unchanged. Unlike the original's run_prompt, which started a fresh session unless
// told otherwise, a run continues the workspace's last session, as POST /run does.
type RunIn struct {
	Prompt             string         `json:"prompt" jsonschema:"the task for the agent"`
	Workspace          string         `json:"workspace,omitempty" jsonschema:"a folder under the workspace root, created if missing; empty is the root (with jsonSchema: a fresh folder, removed afterwards)"`
	Model              string         `json:"model,omitempty" jsonschema:"a model the server offers; empty is its default"`
	JSONSchema         map[string]any `json:"jsonSchema,omitempty" jsonschema:"a JSON Schema the answer must satisfy; the answer's json then holds the checked value"`
	SystemPrompt       string         `json:"systemPrompt,omitempty" jsonschema:"replaces the agent's system prompt"`
	AppendSystemPrompt string         `json:"appendSystemPrompt,omitempty" jsonschema:"added to the agent's system prompt"`
	NoContinue         *bool          `json:"noContinue,omitempty" jsonschema:"true starts a new session; by default (false) the run continues the workspace's last session"`
	Resume             string         `json:"resume,omitempty" jsonschema:"a session id to resume"`
	Thinking           string         `json:"thinking,omitempty" jsonschema:"a thinking level the model offers"`
	TimeoutSeconds     float64        `json:"timeoutSeconds,omitempty" jsonschema:"the run's total time limit in seconds; the server's default otherwise"`

	JSONSchemaSnake         map[string]any `json:"json_schema,omitempty" jsonschema:"jsonSchema, under the original's name"`
	SystemPromptSnake       string         `json:"system_prompt,omitempty" jsonschema:"systemPrompt, under the original's name"`
	AppendSystemPromptSnake string         `json:"append_system_prompt,omitempty" jsonschema:"appendSystemPrompt, under the original's name"`
	NoContinueSnake         *bool          `json:"no_continue,omitempty" jsonschema:"noContinue, under the original's name (whose default was true: here it is false, the run continues)"`
	TimeoutSecondsSnake     float64        `json:"timeout_seconds,omitempty" jsonschema:"timeoutSeconds, under the original's name"`
}

// camelCase moves the snake_case fields to their camelCase names. A field given
// under both names with different values is refused, naming both.
func (in RunIn) camelCase() (RunIn, error) {
	conflict := func(camel, snake string) error {
		return fmt.Errorf("run_prompt: %s and %s are the same field with different values: send one", camel, snake)
	}
	if in.JSONSchemaSnake != nil {
		if in.JSONSchema != nil && !reflect.DeepEqual(in.JSONSchema, in.JSONSchemaSnake) {
			return in, conflict("jsonSchema", "json_schema")
		}
		in.JSONSchema, in.JSONSchemaSnake = in.JSONSchemaSnake, nil
	}
	for _, f := range []struct {
		camel, snake *string
		names        [2]string
	}{
		{&in.SystemPrompt, &in.SystemPromptSnake, [2]string{"systemPrompt", "system_prompt"}},
		{&in.AppendSystemPrompt, &in.AppendSystemPromptSnake, [2]string{"appendSystemPrompt", "append_system_prompt"}},
	} {
		if *f.snake == "" {
			continue
		}
		if *f.camel != "" && *f.camel != *f.snake {
			return in, conflict(f.names[0], f.names[1])
		}
		*f.camel, *f.snake = *f.snake, ""
	}
	if in.NoContinueSnake != nil {
		if in.NoContinue != nil && *in.NoContinue != *in.NoContinueSnake {
			return in, conflict("noContinue", "no_continue")
		}
		in.NoContinue, in.NoContinueSnake = in.NoContinueSnake, nil
	}
	if in.TimeoutSecondsSnake != 0 {
		if in.TimeoutSeconds != 0 && in.TimeoutSeconds != in.TimeoutSecondsSnake {
			return in, conflict("timeoutSeconds", "timeout_seconds")
		}
		in.TimeoutSeconds, in.TimeoutSecondsSnake = in.TimeoutSecondsSnake, 0
	}
	return in, nil
}

// runAnswer is the part of /run's answer run_prompt reads.
type runAnswer struct {
	Text        string `json:"text"`
	Detail      string `json:"detail"`
	OutputError string `json:"outputError"`
}

// runPrompt runs the prompt as a sync POST /run: the tool call's context is the
// connection, so a client that cancels the call cancels the run. The SDK handles
// each call in its own goroutine, so a long run holds up nothing else.
func (s *Server) runPrompt(ctx context.Context, _ *mcpsdk.CallToolRequest, in RunIn) (*mcpsdk.CallToolResult, any, error) {
	in, err := in.camelCase()
	if err != nil {
		return &mcpsdk.CallToolResult{IsError: true, Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: err.Error()}}}, nil, nil
	}
	body, err := json.Marshal(in)
	if err != nil {
		return nil, nil, fmt.Errorf("run_prompt: %w", err)
	}
	status, raw := s.opts.Runs.RunJSON(ctx, body)
	var ans runAnswer
	_ = json.Unmarshal(raw, &ans)
	res := &mcpsdk.CallToolResult{StructuredContent: raw}
	if status == http.StatusOK {
		text := ans.Text
		if ans.OutputError != "" {
			// The model reading the text should know the answer may be partial.
			text += "\n\n[the agent's output could not all be read: " + ans.OutputError + "]"
		}
		res.Content = []mcpsdk.Content{&mcpsdk.TextContent{Text: text}}
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
