package openai

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/serve/structured"
)

// promptOf writes a conversation as one prompt for a CLI agent. A lone user
// message is the prompt itself. Otherwise every message becomes a block headed
// by its role, and the agent is asked to answer the last one. System messages go
// in the prompt too, not in the agent's system prompt: replacing that (as the
// original did) wiped the agent's own instructions, and not every agent takes one.
// With tools, the emulation's directive follows.
func promptOf(c *chat) string {
	msgs := c.messages
	seeImages := ""
	if len(c.images) > 0 {
		seeImages = "\n\nEach [See image: <path>] is an image the user attached, saved as that file: open it to see the image.\n"
	}
	if len(msgs) == 1 && msgs[0].Role == llm.RoleUser && !c.toolsActive() && c.schema == nil {
		return msgs[0].Content + seeImages
	}
	var b strings.Builder
	b.WriteString("Continue this conversation: answer its last message. The conversation so far:\n")
	for _, m := range msgs {
		switch {
		case m.Role == llm.RoleTool:
			b.WriteString("\n[TOOL RESULT " + m.ToolName + " (" + m.ToolCallID + ")]\n" + m.Content + "\n")
		case m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0:
			// The text before the calls is kept; the original dropped it.
			if m.Content != "" {
				b.WriteString("\n[ASSISTANT]\n" + m.Content + "\n")
			}
			b.WriteString("\n[ASSISTANT called tools]\n")
			for _, tc := range m.ToolCalls {
				b.WriteString(tc.Name + "(" + tc.Arguments + ") id " + tc.ID + "\n")
			}
		case m.Content != "":
			b.WriteString("\n[" + strings.ToUpper(string(m.Role)) + "]\n" + m.Content + "\n")
		}
	}
	b.WriteString(seeImages)
	if c.toolsActive() {
		b.WriteString("\n" + toolDirective(c))
	} else if c.schema != nil {
		b.WriteString("\n" + schemaInstruction(c.schema, false) + "\n")
	}
	return b.String()
}

// toolDirective tells an agent how to call the client's tools: by answering with
// nothing but a JSON object that lists the calls.
func toolDirective(c *chat) string {
	var b strings.Builder
	b.WriteString("The caller can run these tools for you; you cannot run them yourself:\n")
	for _, t := range c.tools {
		b.WriteString("- " + t.Name)
		if t.Description != "" {
			b.WriteString(": " + t.Description)
		}
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object"}`)
		}
		var compact bytes.Buffer
		if json.Compact(&compact, params) == nil {
			params = compact.Bytes()
		}
		b.WriteString("\n  arguments (JSON Schema): " + string(params) + "\n")
	}
	b.WriteString("To call tools, reply with only this JSON object, with no prose and no code fences, then stop; the results come back in the next message:\n")
	b.WriteString(`{"tool_calls": [{"name": "<tool name>", "arguments": {<arguments matching its schema>}}]}` + "\n")
	b.WriteString("You may list several calls.\n")
	switch c.choice.Mode {
	case llm.ToolChoiceRequired:
		b.WriteString("You must call at least one tool now.\n")
	case llm.ToolChoiceFunction:
		b.WriteString("You must call the tool " + c.choice.Name + " now.\n")
	default:
		if c.schema != nil {
			b.WriteString(schemaInstruction(c.schema, true) + "\n")
		} else {
			b.WriteString("When you need no tool, answer the last message in plain text.\n")
		}
	}
	return b.String()
}

// callSchema is the shape of an emulated tool-call reply, with the names the
// request allows: the original accepted any name, and a text reply to a required
// call; here a wrong name or a missing call gets a corrective retry.
func callSchema(tools []llm.ToolSpec, choice llm.ToolChoice) (*structured.Schema, error) {
	var names []string
	if choice.Mode == llm.ToolChoiceFunction {
		names = []string{choice.Name}
	} else {
		for _, t := range tools {
			names = append(names, t.Name)
		}
	}
	enum, err := json.Marshal(names)
	if err != nil {
		return nil, err
	}
	return structured.Compile(json.RawMessage(`{"type":"object","required":["tool_calls"],"properties":{"tool_calls":{"type":"array","minItems":1,` +
		`"items":{"type":"object","required":["name"],"properties":{"name":{"enum":` + string(enum) + `},"arguments":{"type":["object","string"]}}}}}}`))
}

// toolCallsIn reads emulated tool calls from an agent's answer: a JSON object of
// calls matching s, found anywhere in the text (structured.Extract's rules).
func toolCallsIn(text string, s *structured.Schema) ([]toolCall, bool) {
	if s == nil {
		return nil, false
	}
	parsed, err := structured.Extract(text, s)
	if err != nil {
		return nil, false
	}
	var v struct {
		ToolCalls []struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"tool_calls"`
	}
	if json.Unmarshal(parsed.JSON, &v) != nil {
		return nil, false
	}
	out := make([]toolCall, 0, len(v.ToolCalls))
	for _, tc := range v.ToolCalls {
		args := "{}"
		var s string
		switch {
		case len(tc.Arguments) == 0 || string(tc.Arguments) == "null":
		case json.Unmarshal(tc.Arguments, &s) == nil:
			args = s
		default:
			args = string(tc.Arguments)
		}
		out = append(out, toolCall{ID: newID("call_"), Type: "function", Function: functionCall{Name: tc.Name, Arguments: args}})
	}
	return out, len(out) > 0
}
