package adapter

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Claude drives Claude Code in print mode with its NDJSON output
// (`claude -p --output-format stream-json --verbose`), every permission granted: the
// workspace is the agent's to change. Claude Code refuses that mode as root, so the
// server must not run as root.
type Claude struct {
	// Binary is the program to run; empty means "claude".
	Binary string
}

func (c *Claude) Name() string { return "claude" }

func (c *Claude) Models() []string { return []string{"haiku", "sonnet", "opus", "opusplan"} }

func (c *Claude) ThinkingLevels() []string {
	return []string{"off", "low", "medium", "high", "xhigh", "max"}
}

func (c *Claude) BuildArgv(req *Request) ([]string, error) {
	argv := []string{orDefault(c.Binary, "claude"), "-p", "--output-format", "stream-json", "--verbose",
		"--permission-mode", "bypassPermissions"}
	if req.Model != "" {
		argv = append(argv, "--model", req.Model)
	}
	// The original listed thinking levels but never passed them on.
	if req.Thinking != "" && req.Thinking != "off" {
		argv = append(argv, "--effort", req.Thinking)
	}
	switch {
	case req.EventMode == EventsFull:
		argv = append(argv, "--include-partial-messages", "--forward-subagent-text", "--include-hook-events")
	case req.StreamTokens:
		argv = append(argv, "--include-partial-messages")
	}
	if req.AppendSystemPrompt != "" {
		argv = append(argv, "--append-system-prompt", req.AppendSystemPrompt)
	}
	if req.SystemPrompt != "" {
		argv = append(argv, "--system-prompt", req.SystemPrompt)
	}
	if len(req.JSONSchema) > 0 {
		argv = append(argv, "--json-schema", compactJSON(req.JSONSchema))
	}
	switch {
	case req.Resume != "":
		argv = append(argv, "--resume", req.Resume)
	case req.Continue:
		argv = append(argv, "--continue")
	}
	switch {
	case req.NoTools:
		argv = append(argv, "--disallowedTools", "*")
	case len(req.ToolsAllowlist) > 0:
		argv = append(argv, "--allowedTools", strings.Join(req.ToolsAllowlist, ","))
	}
	return append(argv, req.ExtraArgs...), nil
}

// claudeRecord holds the fields read from Claude Code's records: system/init,
// assistant, user, stream_event (partial messages) and result.
type claudeRecord struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	SessionID string `json:"session_id"`
	Message   *struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	Result       string          `json:"result"`
	IsError      bool            `json:"is_error"`
	Usage        json.RawMessage `json:"usage"`
	TotalCostUSD float64         `json:"total_cost_usd"`
	StopReason   string          `json:"stop_reason"`
	Event        *struct {
		Type  string `json:"type"`
		Delta struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"delta"`
	} `json:"event"`
}

func (r *claudeRecord) usage() Usage {
	u := usageFrom(r.Usage)
	if r.TotalCostUSD > 0 {
		u.Cost, u.Currency = r.TotalCostUSD, "USD"
	}
	return u
}

// errorText is the failure a result record reports, or "".
func (r *claudeRecord) errorText() string {
	if !r.IsError {
		return ""
	}
	return orDefault(strings.TrimSpace(r.Result), r.Subtype)
}

func (c *Claude) ParseOutput(stdout []byte, _ *Request) Result {
	var res Result
	var text strings.Builder
	for line := range lines(stdout) {
		var r claudeRecord
		if !decodeLine(line, &r) {
			continue
		}
		if res.SessionID == "" && r.SessionID != "" {
			res.SessionID = r.SessionID // system/init comes first; any record carries it
		}
		switch r.Type {
		case "assistant":
			if r.Message != nil {
				text.WriteString(textOf(r.Message.Content))
			}
		case "result":
			res.Usage.Add(r.usage())
			res.StopReason = r.StopReason
			// The original never read is_error: a refused request came back as an
			// empty success.
			res.ProviderError = r.errorText()
			if text.Len() == 0 && !r.IsError {
				text.WriteString(r.Result)
			}
		}
	}
	res.Text = strings.TrimSpace(text.String())
	return res
}

func (c *Claude) NewStream(*Request) Stream { return &claudeStream{} }

type claudeStream struct {
	// partial is set once token deltas arrive; the complete assistant messages that
	// follow them repeat their text and are then not streamed again.
	partial bool
}

func (s *claudeStream) Line(line []byte) []Event {
	var r claudeRecord
	if !decodeLine(line, &r) {
		return nil
	}
	switch r.Type {
	case "system":
		if r.Subtype == "init" && r.SessionID != "" {
			return []Event{{Kind: EventSession, SessionID: r.SessionID}}
		}
	case "stream_event":
		if r.Event != nil && r.Event.Type == "content_block_delta" && r.Event.Delta.Type == "text_delta" {
			s.partial = true
			return []Event{{Kind: EventDelta, Text: r.Event.Delta.Text}}
		}
	case "assistant":
		if !s.partial && r.Message != nil {
			if t := textOf(r.Message.Content); t != "" {
				return []Event{{Kind: EventDelta, Text: t}}
			}
		}
	case "result":
		u := r.usage()
		evs := []Event{{Kind: EventUsage, Usage: &u}}
		if msg := r.errorText(); msg != "" {
			evs = append(evs, Event{Kind: EventError, Text: msg})
		}
		return evs
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// compactJSON returns raw without insignificant spaces, or raw itself if it is not JSON.
func compactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
