package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/serve/native"
)

// errMidStream stops a model call whose provider wants to retry after part of the
// answer reached the client: a retry would send that part again, so it is not made.
var errMidStream = errors.New("the model provider's stream broke after part of the answer was sent to the client; it is not retried, since the client already has that part: send the request again")

// serveNative answers with single model calls: the client's conversation and tools
// go to the model as they are, and its tool calls come back unexecuted.
func (h *Handler) serveNative(w http.ResponseWriter, r *http.Request, comp completer, c *chat, ans *answer) {
	timeout := h.opts.Timeout
	if c.hdr != nil && c.hdr.timeout > 0 {
		timeout = c.hdr.timeout
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	if c.schema != nil {
		h.deliver(w, r, c, ans, h.nativeStructured(ctx, comp, c))
		return
	}
	req := h.turnRequest(c, c.messages)
	if !c.req.Stream {
		resp, err := comp.Complete(ctx, req, nil)
		if err != nil {
			h.fail(w, r, errorOf(r.Context(), err))
			return
		}
		writeJSON(w, http.StatusOK, ans.completion(messageOf(resp.Message), finishOf(resp), usageOf(fromLLM(resp.Usage))))
		return
	}
	s := newStream(w, ans, c.includeUsage())
	defer s.close()
	callCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	resp, err := comp.Complete(callCtx, req, func(ev llm.StreamEvent) {
		switch ev.Kind {
		case llm.EventTextDelta:
			s.text(ev.Text)
		case llm.EventReasoningDelta:
			s.reasoning(ev.Text)
		case llm.EventToolCallStart:
			s.toolCallStart(ev.Index, ev.ID, ev.Name)
		case llm.EventToolCallDelta:
			s.toolCallArguments(ev.Index, ev.Text)
		case llm.EventRetry:
			// Before the first byte a retry is invisible to the client; after it,
			// the client would get the answer's beginning twice.
			if s.started {
				stop(fmt.Errorf("%w (%v)", errMidStream, ev.Err))
			}
		}
		if s.broken.Load() {
			stop(context.Canceled)
		}
	})
	if err != nil {
		if cause := context.Cause(callCtx); errors.Is(cause, errMidStream) {
			err = cause
		}
		e := errorOf(r.Context(), err)
		if errors.Is(err, errMidStream) {
			e = &apiError{Status: http.StatusBadGateway, Type: typeServer, Message: err.Error(), Code: ptr("provider_stream_broken")}
		}
		switch {
		case e == nil || s.broken.Load():
		case s.started:
			s.fail(e)
		default:
			h.fail(w, r, e)
		}
		return
	}
	s.finish(finishOf(resp), usageOf(fromLLM(resp.Usage)))
}

func (h *Handler) turnRequest(c *chat, msgs []llm.Message) native.TurnRequest {
	return native.TurnRequest{Model: c.model, Messages: msgs, Tools: c.tools, ToolChoice: c.choice,
		Thinking: c.req.ReasoningEffort, Temperature: c.req.Temperature, MaxTokens: c.req.MaxCompletionTokens}
}

// messageOf is a model's message in OpenAI's shape: content null when it only
// called tools.
func messageOf(m llm.Message) message {
	out := message{ReasoningContent: m.Reasoning}
	if m.Content != "" || len(m.ToolCalls) == 0 {
		out.Content = ptr(m.Content)
	}
	for _, tc := range m.ToolCalls {
		args := tc.Arguments
		if args == "" {
			args = "{}"
		}
		out.ToolCalls = append(out.ToolCalls, toolCall{ID: tc.ID, Type: "function", Function: functionCall{Name: tc.Name, Arguments: args}})
	}
	return out
}

func finishOf(resp *llm.Response) string {
	switch {
	case len(resp.Message.ToolCalls) > 0:
		return "tool_calls"
	case resp.FinishReason == "":
		return "stop"
	}
	return resp.FinishReason
}
