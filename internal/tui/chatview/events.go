package chatview

import (
	"fmt"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/llm"
)

// Apply shows one agent event. Permission requests only mark the call as waiting:
// the dialog that answers them belongs to the face.
func (v *View) Apply(ev agent.Event) {
	switch ev.Kind {
	case agent.EventTextDelta:
		v.stream(kindAssistant, ev.Text)
	case agent.EventReasoningDelta:
		v.stream(kindReasoning, ev.Text)
	case agent.EventPermission:
		v.tool(ev.Tool).state = toolAsking
	case agent.EventToolCallStart:
		v.tool(ev.Tool).state = toolRunning
	case agent.EventToolCallUpdate:
		it := v.tool(ev.Tool)
		it.output.WriteString(ev.Text)
	case agent.EventToolCallResult:
		it := v.tool(ev.Tool)
		it.result, it.display, it.state = ev.Tool.Output, ev.Tool.Display, toolDone
		if ev.Tool.IsError {
			it.state = toolFailed
		}
	case agent.EventNotice, agent.EventRetry:
		v.AddNotice(ev.Text)
	case agent.EventRateLimitWait:
		v.AddNotice(fmt.Sprintf("waiting %s: %s", time.Duration(ev.WaitSeconds*float64(time.Second)).Round(100*time.Millisecond), ev.Text))
	case agent.EventCompactionStart:
		v.AddNotice("compacting the conversation…")
	case agent.EventCompactionEnd:
		v.AddNotice(orDefault(ev.Text, "conversation compacted"))
	case agent.EventError:
		v.AddError(ev.Text)
	case agent.EventTurnEnd:
		v.open = nil
		switch ev.Stop {
		case agent.StopCancelled:
			v.AddNotice("interrupted")
		case agent.StopMaxTurns, agent.StopMaxPrice:
			v.AddNotice(fmt.Sprintf("stopped: %s", ev.Stop))
		}
	}
}

// stream appends a delta to the open item of kind k, opening one if needed.
func (v *View) stream(k kind, text string) {
	if v.open == nil || v.open.kind != k {
		v.open = v.add(&item{kind: k})
	}
	v.open.text.WriteString(text)
	v.open.dirty = true
}

// tool returns the widget of a call, creating it at its first event.
func (v *View) tool(te *agent.ToolEvent) *item {
	v.open = nil
	if te == nil {
		te = &agent.ToolEvent{}
	}
	it, ok := v.tools[te.ID]
	if !ok || te.ID == "" {
		it = v.add(&item{kind: kindTool, toolID: te.ID, toolName: te.Name, args: te.Arguments})
		v.tools[te.ID] = it
	}
	if len(te.Arguments) > 0 {
		it.args = te.Arguments
	}
	it.dirty = true
	return it
}

// LoadHistory shows a saved conversation: user prompts, answers, reasoning and
// tool calls with their results. Synthetic reminders are left out; a compaction
// summary shows as a notice.
func (v *View) LoadHistory(msgs []llm.Message) {
	for _, m := range msgs {
		switch {
		case m.Summary:
			v.AddNotice("earlier messages were summarised")
		case m.Synthetic && m.Role == llm.RoleUser:
		case m.Role == llm.RoleUser:
			v.AddUser(m.Content)
		case m.Role == llm.RoleAssistant:
			if strings.TrimSpace(m.Reasoning) != "" {
				v.add(newItem(kindReasoning, m.Reasoning))
			}
			if strings.TrimSpace(m.Content) != "" {
				v.add(newItem(kindAssistant, m.Content))
			}
			for _, c := range m.ToolCalls {
				te := agent.ToolEvent{ID: c.ID, Name: c.Name, Arguments: []byte(c.Arguments)}
				v.tool(&te).state = toolRunning
			}
		case m.Role == llm.RoleTool:
			it := v.tool(&agent.ToolEvent{ID: m.ToolCallID, Name: m.ToolName})
			it.result, it.state = m.Content, toolDone
			if m.IsError {
				it.state = toolFailed
			}
		}
	}
	v.open = nil
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
