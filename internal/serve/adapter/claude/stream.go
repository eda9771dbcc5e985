package claude

import (
	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

func (c *Adapter) NewStream(req *backend.Request) cli.Stream {
	return &claudeStream{req: req, types: newClaudeTypes()}
}

// claudeStream turns Claude Code's records into events. Answer deltas carry only
// the answer: a message's text deltas are held until its stop reason is known, and
// dropped when it stops to call a tool (that text is narration, kept in the
// records); without partial messages the result record's answer is the one delta.
type claudeStream struct {
	req   *backend.Request
	types *cli.RecordTypes
	held  []string // text deltas of the current message
	// sent is set once answer text was streamed; the result then adds none.
	sent bool
}

func (s *claudeStream) Line(line []byte) []backend.Event {
	var r claudeRecord
	if err := cli.ReadRecord("claude", line, &r); err != nil {
		return []backend.Event{{Kind: backend.EventError, Text: err.Error()}}
	}
	if err := s.types.Check(r.Type, line); err != nil {
		return []backend.Event{{Kind: backend.EventError, Text: err.Error()}}
	}
	switch r.Type {
	case "system":
		if r.Subtype == "init" && r.SessionID != "" {
			return []backend.Event{{Kind: backend.EventSession, SessionID: r.SessionID}}
		}
	case "stream_event":
		return s.partial(r.Event)
	case "assistant":
		return toolCalls(r.blocks())
	case "user":
		return toolResults(r.blocks())
	case "result":
		var evs []backend.Event
		if a := r.answer(); a != "" && !s.sent {
			evs = append(evs, backend.Event{Kind: backend.EventDelta, Text: a})
		}
		u := r.usage(s.req)
		evs = append(evs, backend.Event{Kind: backend.EventUsage, Usage: &u})
		if msg, kind := r.providerError(); msg != "" {
			evs = append(evs, backend.Event{Kind: backend.EventError, Text: msg, ErrorKind: kind})
		}
		if msg := r.agentError(); msg != "" {
			evs = append(evs, backend.Event{Kind: backend.EventError, Text: msg, ErrorKind: backend.ErrorAgent})
		}
		return evs
	}
	return nil
}

func (s *claudeStream) partial(ev *claudeStreamEvent) []backend.Event {
	if ev == nil {
		return nil
	}
	switch ev.Type {
	case "message_start":
		s.held = s.held[:0]
	case "content_block_delta":
		switch ev.Delta.Type {
		case "text_delta":
			s.held = append(s.held, ev.Delta.Text)
		case "thinking_delta":
			return []backend.Event{{Kind: backend.EventReasoning, Text: ev.Delta.Thinking}}
		}
	case "message_delta":
		if ev.Delta.StopReason == "" {
			return nil
		}
		held := s.held
		s.held = nil
		if ev.Delta.StopReason == "tool_use" {
			return nil
		}
		var evs []backend.Event
		for _, t := range held {
			if t != "" {
				evs = append(evs, backend.Event{Kind: backend.EventDelta, Text: t})
				s.sent = true
			}
		}
		return evs
	}
	return nil
}

func toolCalls(blocks []claudeBlock) []backend.Event {
	var evs []backend.Event
	for _, b := range blocks {
		if b.Type == "tool_use" {
			evs = append(evs, backend.Event{Kind: backend.EventToolCall, Tool: &backend.ToolUse{ID: b.ID, Name: b.Name, Arguments: b.Input}})
		}
	}
	return evs
}

func toolResults(blocks []claudeBlock) []backend.Event {
	var evs []backend.Event
	for _, b := range blocks {
		if b.Type == "tool_result" {
			evs = append(evs, backend.Event{Kind: backend.EventToolResult, Tool: &backend.ToolUse{ID: b.ToolUseID, Output: cli.TextOf(b.Content), IsError: b.IsError}})
		}
	}
	return evs
}
