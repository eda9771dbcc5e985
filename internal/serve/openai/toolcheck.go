package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/structured"
)

// anyCallsSchema is an emulated tool-call reply whatever the names in it: what
// tells a reply that tried to call tools from one that answered.
var anyCallsSchema = sync.OnceValue(func() *structured.Schema {
	s, err := structured.Compile(json.RawMessage(`{"type":"object","required":["tool_calls"],"properties":{"tool_calls":{"type":"array","minItems":1,` +
		`"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}}}}`))
	if err != nil {
		panic(err) // a constant schema
	}
	return s
})

// callNames reads the tool names of a reply that calls tools, declared or not.
func callNames(text string) []string {
	parsed, err := structured.Extract(text, anyCallsSchema())
	if err != nil {
		return nil
	}
	var v struct {
		ToolCalls []struct {
			Name string `json:"name"`
		} `json:"tool_calls"`
	}
	if json.Unmarshal(parsed.JSON, &v) != nil {
		return nil
	}
	names := make([]string, 0, len(v.ToolCalls))
	for _, tc := range v.ToolCalls {
		names = append(names, tc.Name)
	}
	return names
}

// allowedCalls is the tools a reply may call now: the one tool_choice names, or
// every declared one.
func allowedCalls(c *chat) []string {
	if c.choice.Mode == llm.ToolChoiceFunction {
		return []string{c.choice.Name}
	}
	names := make([]string, len(c.tools))
	for i, t := range c.tools {
		names[i] = t.Name
	}
	return names
}

// wrongCalls lists the names a reply calls that it may not call now.
func wrongCalls(c *chat, text string) []string {
	allowed := allowedCalls(c)
	var wrong []string
	for _, n := range callNames(text) {
		if !slices.Contains(allowed, n) && !slices.Contains(wrong, n) {
			wrong = append(wrong, n)
		}
	}
	return wrong
}

// mustCall reports whether tool_choice requires a call this turn.
func mustCall(c *chat) bool {
	return c.choice.Mode == llm.ToolChoiceRequired || c.choice.Mode == llm.ToolChoiceFunction
}

// toolCorrection is the corrective prompt for a reply that called a tool it may
// not call, or called none when one is required; "" when the reply's fault is
// elsewhere (its final answer's schema), for structured's own correction.
func toolCorrection(c *chat, answer string) string {
	allowed := quoteNames(allowedCalls(c))
	shape := `{"tool_calls": [{"name": "<tool name>", "arguments": {...}}]}`
	var b strings.Builder
	switch wrong := wrongCalls(c, answer); {
	case len(wrong) > 0 && c.choice.Mode == llm.ToolChoiceFunction:
		fmt.Fprintf(&b, "Your last reply called %s, but you must call the tool %s now.", quoteNames(wrong), allowed)
	case len(wrong) > 0:
		fmt.Fprintf(&b, "Your last reply called %s, which the caller does not offer: the only tools you may call are %s.", quoteNames(wrong), allowed)
	case mustCall(c) && len(callNames(answer)) == 0 && c.choice.Mode == llm.ToolChoiceFunction:
		fmt.Fprintf(&b, "Your last reply called no tool, but you must call the tool %s now.", allowed)
	case mustCall(c) && len(callNames(answer)) == 0:
		fmt.Fprintf(&b, "Your last reply called no tool, but you must call at least one of %s now.", allowed)
	default:
		return ""
	}
	b.WriteString(" Reply with only this JSON object, no prose and no code fences: " + shape)
	if !mustCall(c) {
		if c.schema != nil {
			b.WriteString("; or, if you need no tool, your final answer as JSON matching the schema you were given")
		} else {
			b.WriteString("; or, if you need no tool, answer in plain text")
		}
	}
	b.WriteString(".")
	return b.String()
}

// restated is a corrective prompt for a fresh session: the agent gave no session
// to go back to, so the task comes again with the rejected answer.
func restated(task, answer, correction string) string {
	return "A previous answer to the task below could not be used.\n\nTask:\n" + task +
		"\n\nPrevious answer:\n" + cut(answer, 2000) + "\n\n" + correction
}

// toolsExhausted is the 422 for a tool-calling request whose retries were spent on
// tool mistakes; nil when the last answer's fault is elsewhere.
func toolsExhausted(c *chat, out *structured.Outcome) *apiError {
	last := out.Last().Text
	tries := fmt.Sprintf("%d attempts (%d corrective)", len(out.Attempts), out.Retries())
	if wrong := wrongCalls(c, last); len(wrong) > 0 {
		return &apiError{Status: http.StatusUnprocessableEntity, Type: typeInvalid, Param: ptr("tools"), Code: ptr("undeclared_tool"),
			Message: fmt.Sprintf("the agent called %s, which it may not call here (allowed: %s), in each of %s; last answer: %s",
				quoteNames(wrong), quoteNames(allowedCalls(c)), tries, cut(last, 500))}
	}
	if mustCall(c) && len(callNames(last)) == 0 {
		want := `tool_choice is "required"`
		if c.choice.Mode == llm.ToolChoiceFunction {
			want = fmt.Sprintf("tool_choice names the function %q", c.choice.Name)
		}
		return &apiError{Status: http.StatusUnprocessableEntity, Type: typeInvalid, Param: ptr("tool_choice"), Code: ptr("tool_choice_unmet"),
			Message: fmt.Sprintf("%s, but the agent called no tool in %s; last answer: %s", want, tries, cut(last, 500))}
	}
	return nil
}

// finalAnswerSchema is what a final answer must match beside tool calls: the
// request's schema, and no tool_calls key, so a reply that calls a tool it may
// not call is never taken for a final answer (with json_object, it would match).
func finalAnswerSchema(s *structured.Schema) (*structured.Schema, error) {
	return structured.Compile(json.RawMessage(`{"allOf":[` + string(s.JSON()) + `,{"not":{"type":"object","required":["tool_calls"]}}]}`))
}

func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// withToolCorrection wraps attempt so that a retry after a tool mistake gets a
// prompt that names the mistake, in the session or restating task.
func withToolCorrection(c *chat, task string, attempt structured.AttemptFunc) structured.AttemptFunc {
	var last string
	return func(ctx context.Context, t structured.Turn) (backend.Result, error) {
		if t.Index > 0 {
			if fix := toolCorrection(c, last); fix != "" {
				t.Prompt = fix
				if t.Resume == "" {
					t.Prompt = restated(task, last, fix)
				}
			}
		}
		res, err := attempt(ctx, t)
		last = res.Text
		return res, err
	}
}
