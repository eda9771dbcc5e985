package acp

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

const twoQuestions = `{"questions":[
 {"question":"Which database?","header":"Database","options":[{"label":"SQLite","description":"one file"},{"label":"PostgreSQL","description":"a server"}]},
 {"question":"Which port?","header":"Port","options":[{"label":"8080","description":"the usual"},{"label":"9090","description":"the other"}]}]}`

// ask_user_question reaches the editor as one permission request per question,
// each choice an option plus "none of these"; the picks become the answers.
func TestAskUserQuestionGoesThroughPermissionRequests(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{ID: "q1", Name: "ask_user_question", Arguments: twoQuestions}}},
		{Text: []string{"done"}},
	}}, nil)
	c := &client{answers: []string{"choice-1", optNoneOfThese}}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "set it up"))
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", resp, err)
	}
	if len(c.asked) != 2 {
		t.Fatalf("%d permission requests, want one per question", len(c.asked))
	}
	first := c.asked[0]
	var ids, names []string
	for _, o := range first.Options {
		ids, names = append(ids, string(o.OptionId)), append(names, o.Name)
	}
	switch {
	case first.ToolCall.ToolCallId != "q1" || first.ToolCall.Title == nil || *first.ToolCall.Title != "Which database? (1/2)":
		t.Errorf("tool call of the request: %+v", first.ToolCall)
	case strings.Join(ids, ",") != "choice-0,choice-1,none_of_these" || strings.Join(names, ",") != "SQLite,PostgreSQL,None of these":
		t.Errorf("options %v %v", ids, names)
	case first.Options[2].Kind != sdk.PermissionOptionKindRejectOnce:
		t.Errorf("none of these is a %q option", first.Options[2].Kind)
	case len(first.ToolCall.Content) != 1 || !strings.Contains(first.ToolCall.Content[0].Content.Content.Text.Text, "PostgreSQL: a server"):
		t.Errorf("the request does not show the choices: %+v", first.ToolCall.Content)
	}
	body := f.srv.ModelRequests()[1].Body
	for _, want := range []string{"chose: PostgreSQL", "in their own words: none of these"} {
		if !strings.Contains(body, want) {
			t.Errorf("the answer lacks %q: %s", want, body)
		}
	}
}

// A dismissed question is the tool's "no answer" result; the turn goes on.
func TestADismissedQuestionIsNoAnswerAndTheTurnGoesOn(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{ID: "q1", Name: "ask_user_question", Arguments: twoQuestions}}},
		{Text: []string{"I will pick SQLite myself"}},
	}}, nil)
	c := &client{answers: []string{""}}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "set it up"))
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", resp, err)
	}
	if len(c.asked) != 1 {
		t.Errorf("%d requests: the second question was asked after the first was dismissed", len(c.asked))
	}
	if body := f.srv.ModelRequests()[1].Body; !strings.Contains(body, "the user declined to answer") {
		t.Errorf("the model was not told nobody answered: %s", body)
	}
	if !strings.Contains(c.agentText(), "I will pick SQLite myself") {
		t.Errorf("the turn did not go on: %q", c.agentText())
	}
}
