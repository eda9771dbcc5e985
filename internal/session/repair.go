package session

import (
	"fmt"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// interruptedText is the result the model sees for a call that never got one. It
// tells the model the tool may or may not have run, so it checks before retrying.
const interruptedText = "Tool call interrupted: no result was recorded (albert-code stopped or the turn was cancelled before the tool finished). Its effects, if any, are unknown; check before retrying."

// Repair returns a history every provider accepts, without changing msgs:
//
//   - every tool call of an assistant message gets a result among the tool messages
//     that directly follow it; a missing one is added as a synthetic error result
//     (Synthetic and IsError set) right after the results that exist, in call order;
//   - a tool message that does not answer a call of the assistant message directly
//     before its run of tool messages (an orphan), or that answers a call a second
//     time, is dropped.
//
// Providers reject both shapes (OpenAI-compatible servers with a 400, Anthropic with
// "tool_use ids were found without tool_result blocks"), and both happen when a turn
// is cancelled or the program stops between a call and its result. Repair is applied
// when a session is opened; the log on disk keeps what really happened.
func Repair(msgs []llm.Message) []llm.Message {
	out, _, _ := repair(msgs)
	return out
}

// repair is Repair that also counts what it changed, for the warning shown on load.
// It returns msgs itself when nothing needs changing.
func repair(msgs []llm.Message) (out []llm.Message, added, dropped int) {
	if historyValid(msgs) {
		return msgs, 0, 0
	}
	out = make([]llm.Message, 0, len(msgs))
	for i := 0; i < len(msgs); {
		m := msgs[i]
		i++
		if m.Role == llm.RoleTool {
			dropped++ // not after an assistant message with calls: an orphan
			continue
		}
		out = append(out, m)
		if m.Role != llm.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		answered := make(map[string]bool, len(m.ToolCalls))
		pending := make(map[string]bool, len(m.ToolCalls))
		for _, c := range m.ToolCalls {
			pending[c.ID] = true
		}
		for ; i < len(msgs) && msgs[i].Role == llm.RoleTool; i++ {
			r := msgs[i]
			if !pending[r.ToolCallID] || answered[r.ToolCallID] {
				dropped++
				continue
			}
			answered[r.ToolCallID] = true
			out = append(out, r)
		}
		for _, c := range m.ToolCalls {
			if answered[c.ID] {
				continue
			}
			answered[c.ID] = true // a call ID listed twice gets one result
			out = append(out, interrupted(c))
			added++
		}
	}
	return out, added, dropped
}

func interrupted(c llm.ToolCall) llm.Message {
	return llm.Message{
		Role:       llm.RoleTool,
		ToolCallID: c.ID,
		ToolName:   c.Name,
		Content:    interruptedText,
		IsError:    true,
		Synthetic:  true,
	}
}

// historyValid is repair's fast path: the agent calls Repair before every turn,
// and a healthy history should cost no allocation.
func historyValid(msgs []llm.Message) bool {
	var calls []llm.ToolCall // calls of the current assistant message
	seen := 0                // results seen for them so far
	for _, m := range msgs {
		if m.Role == llm.RoleTool {
			if seen >= len(calls) || m.ToolCallID != calls[seen].ID {
				return false // requires results in call order; other orders take the slow path
			}
			seen++
			continue
		}
		if seen < len(calls) {
			return false
		}
		calls, seen = nil, 0
		if m.Role == llm.RoleAssistant {
			calls = m.ToolCalls
		}
	}
	return seen == len(calls)
}

// repairWarning describes what repair changed, for Log.Warnings.
func repairWarning(id string, added, dropped int) string {
	return fmt.Sprintf("session %s: history repaired for the model: %d interrupted tool call(s) given a synthetic error result, %d orphan tool result(s) left out; the log on disk is unchanged",
		id, added, dropped)
}
