package acp

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/tool"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

// ACP v1 has no method for questions, so ask_user_question goes through
// session/request_permission: the question is the tool call's title and content,
// each choice an option, plus one to answer none of them.
const (
	optChoicePrefix = "choice-"
	optNoneOfThese  = "none_of_these"
	// noneAnswer is what the model reads when the user picked no choice.
	noneAnswer = "none of these"
)

// askTool is ask_user_question with the editor's user as the one who answers. It
// keeps the built-in's name, description and schema.
type askTool struct {
	tool.Tool
}

// callKey carries the running call's id to the asker, which must name the tool call
// the question belongs to.
type callKey struct{}

func (ss *session) askTool() tool.Tool {
	return askTool{Tool: builtin.AskUserQuestion(editorAsker{ss: ss})}
}

func (a askTool) Run(ctx context.Context, call tool.Call) (tool.Result, error) {
	return a.Tool.Run(context.WithValue(ctx, callKey{}, call.ID), call)
}

// Prepare resolves the validation schema ahead of the first call, as the built-in does.
func (a askTool) Prepare() {
	if p, ok := a.Tool.(interface{ Prepare() }); ok {
		p.Prepare()
	}
}

// editorAsker asks each question in turn as a permission request.
type editorAsker struct{ ss *session }

func (e editorAsker) Ask(ctx context.Context, questions []builtin.Question) ([]builtin.Answer, error) {
	id, _ := ctx.Value(callKey{}).(string)
	answers := make([]builtin.Answer, 0, len(questions))
	for i, q := range questions {
		resp, err := e.ss.srv.conn.RequestPermission(ctx, questionRequest(e.ss.id, id, i, len(questions), q))
		if err != nil {
			return nil, fmt.Errorf("session/request_permission: %w", err)
		}
		sel := resp.Outcome.Selected
		if sel == nil {
			// Dismissed: the tool tells the model nobody answered, and the turn goes on.
			return nil, builtin.ErrDeclined
		}
		answers = append(answers, answerFor(q, string(sel.OptionId)))
	}
	return answers, nil
}

func questionRequest(sessionID, callID string, i, n int, q builtin.Question) sdk.RequestPermissionRequest {
	title := q.Question
	if n > 1 {
		title = fmt.Sprintf("%s (%d/%d)", title, i+1, n)
	}
	var body strings.Builder
	fmt.Fprintf(&body, "%s: %s\n", q.Header, q.Question)
	for _, o := range q.Options {
		fmt.Fprintf(&body, "- %s", o.Label)
		if o.Description != "" {
			fmt.Fprintf(&body, ": %s", o.Description)
		}
		body.WriteString("\n")
	}
	if q.MultiSelect {
		body.WriteString("(Several choices were allowed; this editor lets you pick one.)\n")
	}
	kind, status := sdk.ToolKindOther, sdk.ToolCallStatusPending
	opts := make([]sdk.PermissionOption, 0, len(q.Options)+1)
	for j, o := range q.Options {
		opts = append(opts, sdk.PermissionOption{OptionId: sdk.PermissionOptionId(optChoicePrefix + strconv.Itoa(j)), Name: o.Label, Kind: sdk.PermissionOptionKindAllowOnce})
	}
	opts = append(opts, sdk.PermissionOption{OptionId: optNoneOfThese, Name: "None of these", Kind: sdk.PermissionOptionKindRejectOnce})
	return sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(sessionID),
		ToolCall: sdk.ToolCallUpdate{ToolCallId: sdk.ToolCallId(callID), Title: &title, Kind: &kind, Status: &status,
			Content: []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(body.String()))}},
		Options: opts,
	}
}

// answerFor maps the chosen option to the answer; "none of these", or an id we did
// not offer, is an answer in the user's words saying no choice fits.
func answerFor(q builtin.Question, optionID string) builtin.Answer {
	if j, err := strconv.Atoi(strings.TrimPrefix(optionID, optChoicePrefix)); err == nil &&
		strings.HasPrefix(optionID, optChoicePrefix) && j >= 0 && j < len(q.Options) {
		return builtin.Answer{Selected: []string{q.Options[j].Label}}
	}
	return builtin.Answer{Other: noneAnswer}
}
