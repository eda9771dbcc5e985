package openai

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/structured"
)

// reply is a whole answer, computed before anything is sent, or why there is none.
type reply struct {
	msg    message
	finish string
	usage  usage
	err    *apiError
	// gone: the client went away, and nothing is to be written.
	gone bool
	// outputError is a CLI agent's unreadable output (structured.Outcome.OutputError).
	outputError string
}

// deliver sends a computed reply: as one completion, or as a stream of a few
// chunks when the client asked to stream (the content in one chunk, each tool
// call in two), so that streaming clients work with every kind of request.
func (h *Handler) deliver(w http.ResponseWriter, r *http.Request, c *chat, ans *answer, rep reply) {
	switch {
	case rep.gone:
		return
	case rep.err != nil:
		h.fail(w, r, rep.err)
		return
	}
	ans.outputError = rep.outputError
	switch {
	case !c.req.Stream:
		writeJSON(w, http.StatusOK, ans.completion(rep.msg, rep.finish, rep.usage))
		return
	}
	s := newStream(w, ans, c.includeUsage())
	s.start()
	if rep.msg.ReasoningContent != "" {
		s.reasoning(rep.msg.ReasoningContent)
	}
	if rep.msg.Content != nil && *rep.msg.Content != "" {
		s.text(*rep.msg.Content)
	}
	for i, tc := range rep.msg.ToolCalls {
		s.toolCallStart(i, tc.ID, tc.Function.Name)
		s.toolCallArguments(i, tc.Function.Arguments)
	}
	s.finish(rep.finish, rep.usage)
}

// conversationSession is the session a native attempt reports, so that
// structured.Run corrects in the conversation (the bad answer and the corrective
// prompt are appended to it) instead of restating the task.
const conversationSession = "conversation"

// nativeStructured asks the model for an answer matching the request's schema,
// correcting it up to structured's retry limit. A turn where the model calls the
// client's tools is returned unchecked: only the final answer must match.
func (h *Handler) nativeStructured(ctx context.Context, comp completer, c *chat) reply {
	conv := withInstruction(c.messages, schemaInstruction(c.schema, c.toolsActive()))
	var last *llm.Response
	attempt := func(ctx context.Context, t structured.Turn) (backend.Result, error) {
		if t.Index > 0 {
			conv = append(conv, llm.Message{Role: llm.RoleAssistant, Content: last.Message.Content},
				llm.Message{Role: llm.RoleUser, Content: t.Prompt})
		}
		resp, err := comp.Complete(ctx, h.turnRequest(c, conv), nil)
		if err != nil {
			return backend.Result{}, err
		}
		last = resp
		return backend.Result{Text: resp.Message.Content, SessionID: conversationSession, Usage: fromLLM(resp.Usage)}, nil
	}
	out, err := structured.Run(ctx, "", c.schema, attempt, structured.Options{
		Unchecked: func(backend.Result) bool { return len(last.Message.ToolCalls) > 0 },
	})
	if err != nil {
		if e := errorOf(ctx, err); e != nil {
			return reply{err: e}
		}
		return reply{gone: true}
	}
	if out.End == structured.Unchecked {
		msg := messageOf(last.Message)
		return reply{msg: msg, finish: "tool_calls", usage: usageOf(out.Usage)}
	}
	return outcomeReply(out)
}

// outcomeReply answers for a structured run that ended without an error of its
// own: the matching JSON, or why there is none.
func outcomeReply(out *structured.Outcome) reply {
	switch out.End {
	case structured.Matched:
		return reply{msg: message{Content: ptr(string(out.Parsed.JSON))}, finish: "stop", usage: usageOf(out.Usage)}
	case structured.Exhausted:
		return reply{err: &apiError{Status: http.StatusUnprocessableEntity, Type: typeInvalid, Param: ptr("response_format"), Code: ptr("json_schema_mismatch"),
			Message: fmt.Sprintf("the answer does not match response_format after %d attempts (%d corrective): %v; last answer: %s",
				len(out.Attempts), out.Retries(), out.Err, cut(out.Last().Text, 500))}}
	case structured.Cancelled:
		return reply{gone: true}
	}
	return reply{err: resultError(out.Last())}
}

// resultError answers for a CLI agent's run that failed: stopped, refused by its
// provider, or crashed. A provider's refusal comes first: the real CLIs exit 1 on
// one, and the client needs the provider's reason, not the exit code.
func resultError(res backend.Result) *apiError {
	switch {
	case res.Stopped == "timeout" || res.Stopped == "idle":
		return &apiError{Status: http.StatusGatewayTimeout, Type: typeServer, Code: ptr("timeout"),
			Message: fmt.Sprintf("the agent was stopped: %s timeout", res.Stopped)}
	case res.ProviderError != "":
		return providerRefusal(res.ProviderError, res.ErrorKind)
	case res.AgentError != "":
		return &apiError{Status: http.StatusInternalServerError, Type: typeServer, Code: ptr("agent_failed"), ExitCode: ptr(res.ExitCode),
			Message: "the agent failed on its own: " + res.AgentError}
	case res.ExitCode != 0 || (res.Stopped != "" && res.Stopped != "exited"):
		what := fmt.Sprintf("the agent exited with code %d", res.ExitCode)
		if res.Signal != "" {
			what = "the agent was killed by signal " + res.Signal
		}
		if tail := cut(strings.TrimSpace(res.Stderr), 500); tail != "" {
			what += ": " + tail
		}
		return &apiError{Status: http.StatusInternalServerError, Type: typeServer, Code: ptr("agent_failed"), ExitCode: ptr(res.ExitCode), Message: what}
	}
	return &apiError{Status: http.StatusInternalServerError, Type: typeServer, Message: "the agent's run failed"}
}

// schemaInstruction tells the model what shape the final answer takes.
func schemaInstruction(s *structured.Schema, tools bool) string {
	lead := "Answer"
	if tools {
		lead = "When you answer instead of calling a tool, answer"
	}
	return lead + " with only a JSON value matching this JSON Schema: no prose, no Markdown code fences, no comments.\nSchema:\n" + string(s.JSON())
}

// withInstruction adds text to the conversation's first system message, or puts
// a system message first: some providers take a single system message.
func withInstruction(msgs []llm.Message, text string) []llm.Message {
	out := make([]llm.Message, 0, len(msgs)+1)
	if len(msgs) > 0 && msgs[0].Role == llm.RoleSystem {
		first := msgs[0]
		first.Content += "\n\n" + text
		return append(append(out, first), msgs[1:]...)
	}
	out = append(out, llm.Message{Role: llm.RoleSystem, Content: text})
	return append(out, msgs...)
}

// cut keeps the head of s, up to n bytes on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..."
}
