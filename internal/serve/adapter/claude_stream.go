package adapter

func (c *Claude) NewStream(req *Request) Stream {
	return &claudeStream{req: req, types: newClaudeTypes()}
}

// claudeStream turns Claude Code's records into events. Answer deltas carry only
// the answer: a message's text deltas are held until its stop reason is known, and
// dropped when it stops to call a tool (that text is narration, kept in the
// records); without partial messages the result record's answer is the one delta.
type claudeStream struct {
	req   *Request
	types *recordTypes
	held  []string // text deltas of the current message
	// sent is set once answer text was streamed; the result then adds none.
	sent bool
}

func (s *claudeStream) Line(line []byte) []Event {
	var r claudeRecord
	if err := readRecord("claude", line, &r); err != nil {
		return []Event{{Kind: EventError, Text: err.Error()}}
	}
	if err := s.types.check(r.Type, line); err != nil {
		return []Event{{Kind: EventError, Text: err.Error()}}
	}
	switch r.Type {
	case "system":
		if r.Subtype == "init" && r.SessionID != "" {
			return []Event{{Kind: EventSession, SessionID: r.SessionID}}
		}
	case "stream_event":
		return s.partial(r.Event)
	case "assistant":
		return toolCalls(r.blocks())
	case "user":
		return toolResults(r.blocks())
	case "result":
		var evs []Event
		if a := r.answer(); a != "" && !s.sent {
			evs = append(evs, Event{Kind: EventDelta, Text: a})
		}
		u := r.usage(s.req)
		evs = append(evs, Event{Kind: EventUsage, Usage: &u})
		if msg, kind := r.providerError(); msg != "" {
			evs = append(evs, Event{Kind: EventError, Text: msg, ErrorKind: kind})
		}
		if msg := r.agentError(); msg != "" {
			evs = append(evs, Event{Kind: EventError, Text: msg, ErrorKind: ErrorAgent})
		}
		return evs
	}
	return nil
}

func (s *claudeStream) partial(ev *claudeStreamEvent) []Event {
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
			return []Event{{Kind: EventReasoning, Text: ev.Delta.Thinking}}
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
		var evs []Event
		for _, t := range held {
			if t != "" {
				evs = append(evs, Event{Kind: EventDelta, Text: t})
				s.sent = true
			}
		}
		return evs
	}
	return nil
}

func toolCalls(blocks []claudeBlock) []Event {
	var evs []Event
	for _, b := range blocks {
		if b.Type == "tool_use" {
			evs = append(evs, Event{Kind: EventToolCall, Tool: &ToolUse{ID: b.ID, Name: b.Name, Arguments: b.Input}})
		}
	}
	return evs
}

func toolResults(blocks []claudeBlock) []Event {
	var evs []Event
	for _, b := range blocks {
		if b.Type == "tool_result" {
			evs = append(evs, Event{Kind: EventToolResult, Tool: &ToolUse{ID: b.ToolUseID, Output: textOf(b.Content), IsError: b.IsError}})
		}
	}
	return evs
}
