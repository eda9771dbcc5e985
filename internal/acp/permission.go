package acp

import (
	"context"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/agent"
)

// The permission options offered for every call. reject_always is not offered: a
// standing refusal belongs in the configuration, where the user can see it.
const (
	optAllowOnce   = "allow_once"
	optAllowAlways = "allow_always"
	optReject      = "reject_once"
)

// approver asks the editor's user about a tool call through session/request_permission.
type approver struct{ ss *session }

func (a approver) Approve(ctx context.Context, call agent.ToolEvent) (agent.Decision, error) {
	ss := a.ss
	title := toolTitle(call.Name, call.Arguments, ss.cwd)
	kind := toolKind(call.Name)
	status := sdk.ToolCallStatusPending
	tc := sdk.ToolCallUpdate{
		ToolCallId: sdk.ToolCallId(call.ID), Title: &title, Kind: &kind, Status: &status,
		RawInput: rawInput(call.Arguments), Locations: toolLocations(call.Name, call.Arguments, ss.cwd),
	}
	if call.Reason != "" {
		tc.Content = []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("Why this needs approval: " + call.Reason))}
	}
	resp, err := ss.srv.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(ss.id),
		ToolCall:  tc,
		Options: []sdk.PermissionOption{
			{OptionId: optAllowOnce, Name: "Allow once", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: optAllowAlways, Name: fmt.Sprintf("Allow %s for this session", call.Name), Kind: sdk.PermissionOptionKindAllowAlways},
			{OptionId: optReject, Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	})
	if err != nil {
		return agent.Decision{}, fmt.Errorf("session/request_permission: %w", err)
	}
	return decision(resp.Outcome), nil
}

// decision maps the editor's answer to the agent's. A dismissed request (the
// prompt was cancelled) is a denial.
func decision(o sdk.RequestPermissionOutcome) agent.Decision {
	if o.Selected == nil {
		return agent.Decision{Feedback: "the user dismissed the request"}
	}
	switch string(o.Selected.OptionId) {
	case optAllowOnce:
		return agent.Decision{Allow: true}
	case optAllowAlways:
		return agent.Decision{Allow: true, ForSession: true}
	}
	return agent.Decision{}
}
