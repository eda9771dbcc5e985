package acp

import (
	"context"
	"encoding/json"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// replay sends a loaded conversation as the updates that would have streamed:
// user and agent messages, thoughts, tool calls and their results.
func (ss *session) replay(ctx context.Context) {
	names := map[string]llm.ToolCall{}
	for _, m := range ss.chat.History() {
		if m.Synthetic && m.Role == llm.RoleUser {
			continue // reminders the agent wrote to itself
		}
		switch m.Role {
		case llm.RoleUser:
			if m.Content != "" {
				ss.send(ctx, sdk.UpdateUserMessageText(m.Content))
			}
		case llm.RoleAssistant:
			if m.Reasoning != "" {
				ss.send(ctx, sdk.UpdateAgentThoughtText(m.Reasoning))
			}
			if m.Content != "" {
				ss.send(ctx, sdk.UpdateAgentMessageText(m.Content))
			}
			for _, c := range m.ToolCalls {
				names[c.ID] = c
				args := json.RawMessage(c.Arguments)
				ss.send(ctx, sdk.StartToolCall(sdk.ToolCallId(c.ID), toolTitle(c.Name, args, ss.cwd),
					sdk.WithStartKind(toolKind(c.Name)), sdk.WithStartStatus(sdk.ToolCallStatusPending),
					sdk.WithStartRawInput(rawInput(args)), sdk.WithStartLocations(toolLocations(c.Name, args, ss.cwd))))
			}
		case llm.RoleTool:
			status := sdk.ToolCallStatusCompleted
			if m.IsError {
				status = sdk.ToolCallStatusFailed
			}
			opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(status)}
			if c := resultContent(names[m.ToolCallID].Name, m.Content, nil, ss.cwd); c != nil {
				opts = append(opts, sdk.WithUpdateContent(c))
			}
			ss.send(ctx, sdk.UpdateToolCall(sdk.ToolCallId(m.ToolCallID), opts...))
		}
	}
}
