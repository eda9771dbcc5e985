package openai

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/structured"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// Workspace headers: ours, then the original's two spellings.
var workspaceHeaders = []string{"X-Albert-Code-Workspace", "X-Aicodebox-Workspace", "X-Claude-Workspace"}

// serveCLI answers with a CLI agent: the conversation becomes its prompt, in a
// fresh session each time (the client sends the whole history), in the workspace
// the request names or a throw-away one.
func (h *Handler) serveCLI(w http.ResponseWriter, r *http.Request, a cli.Adapter, c *chat, ans *answer) {
	if name, _, ok := hdrContinue.value(r); ok && c.hdr.continued && !hasWorkspaceHeader(r) {
		h.fail(w, r, badRequest(name, "%s: a session to continue lives in a workspace, and without %s each request runs in a throw-away folder: send %s too (or %s with a session id)",
			name, workspaceHeaders[0], workspaceHeaders[0], hdrResume.names[0]))
		return
	}
	ws, done, aerr := h.workspaceOf(r)
	if aerr != nil {
		h.fail(w, r, aerr)
		return
	}
	defer done()
	release, err := h.opts.Locks.Acquire(r.Context(), ws)
	if err != nil {
		h.fail(w, r, errorOf(r.Context(), err))
		return
	}
	defer release()
	if len(c.images) > 0 {
		paths, remove, err := saveImages(ws, c.images)
		if err != nil {
			h.fail(w, r, &apiError{Status: http.StatusInternalServerError, Type: typeServer, Message: err.Error()})
			return
		}
		defer remove()
		for i := range c.messages {
			for mark, abs := range paths {
				c.messages[i].Content = strings.ReplaceAll(c.messages[i].Content, mark, abs)
			}
		}
	}

	base := requestOf(c, ws)
	base.Prompt = promptOf(c)
	if c.hdr.noTools != nil {
		base.NoTools = *c.hdr.noTools
	} else if c.toolsActive() && len(c.images) == 0 {
		// The client's tools stand in for the agent's own, as in the original;
		// an agent that cannot turn its tools off keeps them, and so does one
		// that must open the request's images.
		withoutTools := base
		withoutTools.NoTools = true
		if cli.Validate(a, &withoutTools) == nil {
			base = withoutTools
		}
	}
	if !c.toolsActive() && c.schema != nil {
		base.JSONSchema = c.schema.JSON() // agents that enforce schemas get it
	}
	if !c.toolsActive() && c.schema == nil {
		h.cliPlain(w, r, a, c, ans, base)
		return
	}
	h.deliver(w, r, c, ans, h.cliEmulated(r.Context(), a, c, base))
}

// requestOf is the run a request asks for, before its prompt: the model, the
// reasoning effort and the run headers.
func requestOf(c *chat, ws string) backend.Request {
	return backend.Request{Workspace: ws, Model: c.model, Thinking: c.req.ReasoningEffort,
		ExtraArgs: c.hdr.extraArgs, ToolsAllowlist: c.hdr.allowlist, Resume: c.hdr.resume, Continue: c.hdr.continued,
		AppendSystemPrompt: c.hdr.appendSystem, Timeout: c.hdr.timeout}
}

func hasWorkspaceHeader(r *http.Request) bool {
	for _, name := range workspaceHeaders {
		if r.Header.Get(name) != "" {
			return true
		}
	}
	return false
}

// workspaceOf resolves the request's workspace header, or makes a throw-away
// folder; done removes it.
func (h *Handler) workspaceOf(r *http.Request) (dir string, done func(), aerr *apiError) {
	for _, name := range workspaceHeaders {
		v := r.Header.Get(name)
		if v == "" {
			continue
		}
		if h.opts.Root == nil {
			return "", nil, badRequest(name, "%s: this server has no workspace root; leave the header out", name)
		}
		dir, err := h.opts.Root.Workspace(v, true)
		if err != nil {
			e := badRequest(name, "%s: %v", name, err)
			return "", nil, withCode(e, "invalid_workspace")
		}
		return dir, func() {}, nil
	}
	tmp, err := workspace.Ephemeral(h.opts.TempParent)
	if err != nil {
		return "", nil, &apiError{Status: http.StatusInternalServerError, Type: typeServer, Message: err.Error()}
	}
	return tmp.Dir, func() { _ = tmp.Remove() }, nil
}

// wholeMessages is an adapter whose agent prints its answer only once it is whole
// (codex): a stream opens at once, so the client does not time out meanwhile.
type wholeMessages interface{ WholeMessages() bool }

// cliPlain runs the agent once and passes its answer on, streaming its deltas as
// they come when the client streams.
func (h *Handler) cliPlain(w http.ResponseWriter, r *http.Request, a cli.Adapter, c *chat, ans *answer, req backend.Request) {
	var s *stream
	emit := func(backend.Event) {}
	ctx, stop := context.WithCancel(r.Context())
	defer stop()
	if c.req.Stream {
		req.StreamTokens = true
		s = newStream(w, ans, c.includeUsage())
		defer s.close()
		if w, ok := a.(wholeMessages); ok && w.WholeMessages() {
			s.open()
		}
		emit = func(ev backend.Event) {
			switch ev.Kind {
			case backend.EventDelta:
				s.text(ev.Text)
			case backend.EventReasoning:
				s.reasoning(ev.Text)
			}
			if s.broken.Load() {
				stop()
			}
		}
	}
	res, err := h.opts.Runner.Run(ctx, a, req, emit)
	ans.outputError = res.OutputError
	var e *apiError
	switch {
	case err != nil:
		e = errorOf(r.Context(), err)
	case res.Stopped == "cancelled" && r.Context().Err() != nil:
	default:
		if _, failed := failed(res); failed {
			e = resultError(res)
		}
	}
	switch {
	case s == nil && e != nil:
		h.fail(w, r, e)
	case s == nil && err == nil:
		writeJSON(w, http.StatusOK, ans.completion(message{Content: ptr(res.Text)}, "stop", usageOf(res.Usage)))
	case s.broken.Load() || r.Context().Err() != nil:
	case e != nil && s.started:
		s.fail(e)
	case e != nil:
		h.fail(w, r, e)
	default:
		s.finish("stop", usageOf(res.Usage))
	}
}

// failed reports a result that is no answer: the agent stopped, crashed, or
// its provider refused.
func failed(res backend.Result) (string, bool) {
	switch {
	case res.Stopped != "" && res.Stopped != "exited":
		return res.Stopped, true
	case res.ExitCode != 0:
		return "exit", true
	case res.ProviderError != "":
		return "provider", true
	case res.AgentError != "":
		return "agent", true
	}
	return "", false
}

// cliEmulated runs a request with tools or a schema: the agent's text is read as
// emulated tool calls or checked against the schema, with corrective retries in
// the agent's session when a tool call is required, names a tool the request does
// not offer, or the answer does not match.
func (h *Handler) cliEmulated(ctx context.Context, a cli.Adapter, c *chat, base backend.Request) reply {
	var calls *structured.Schema
	if c.toolsActive() {
		var err error
		if calls, err = callSchema(c.tools, c.choice); err != nil {
			return reply{err: &apiError{Status: http.StatusInternalServerError, Type: typeServer, Message: err.Error()}}
		}
	}
	attempt := func(ctx context.Context, t structured.Turn) (backend.Result, error) {
		req := base
		req.Prompt = t.Prompt
		if t.Index > 0 {
			// A retry goes back to the session the last attempt reported, or
			// restates the task in a fresh one: the request's own session
			// choice was for the first attempt.
			req.Resume, req.Continue = t.Resume, false
		}
		return h.opts.Runner.Run(ctx, a, req, nil)
	}
	var schema *structured.Schema
	opts := structured.Options{}
	switch {
	case c.toolsActive() && mustCall(c):
		schema = calls
	case c.toolsActive() && c.schema != nil:
		final, err := finalAnswerSchema(c.schema)
		if err != nil {
			return reply{err: &apiError{Status: http.StatusInternalServerError, Type: typeServer, Message: err.Error()}}
		}
		schema = final
		opts.Unchecked = func(res backend.Result) bool { _, ok := toolCallsIn(res.Text, calls); return ok }
	case c.toolsActive():
		// auto: the answer is tool calls when it reads as them, else text; only
		// a call of a tool the request does not offer is corrected.
		schema = calls
		opts.Unchecked = func(res backend.Result) bool { return len(wrongCalls(c, res.Text)) == 0 }
	default:
		schema = c.schema
	}
	if c.toolsActive() {
		attempt = withToolCorrection(c, base.Prompt, attempt)
	}
	out, err := structured.Run(ctx, base.Prompt, schema, attempt, opts)
	if err != nil {
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			return reply{gone: true}
		}
		return reply{err: errorOf(ctx, err)}
	}
	rep := emulatedReply(c, calls, schema, out)
	rep.outputError = out.OutputError()
	return rep
}

// emulatedReply is the answer of an emulated run: tool calls, text, or the
// outcome's matching JSON or failure.
func emulatedReply(c *chat, calls, schema *structured.Schema, out *structured.Outcome) reply {
	switch {
	case out.End == structured.Unchecked:
		text := out.Last().Text
		if tcs, ok := toolCallsIn(text, calls); ok {
			return reply{msg: message{ToolCalls: tcs}, finish: "tool_calls", usage: usageOf(out.Usage)}
		}
		return reply{msg: message{Content: ptr(text)}, finish: "stop", usage: usageOf(out.Usage)}
	case out.End == structured.Matched && schema == calls:
		tcs, _ := toolCallsIn(string(out.Parsed.JSON), calls)
		return reply{msg: message{ToolCalls: tcs}, finish: "tool_calls", usage: usageOf(out.Usage)}
	case out.End == structured.Exhausted && c.toolsActive():
		if e := toolsExhausted(c, out); e != nil {
			return reply{err: e}
		}
	}
	return outcomeReply(out)
}
