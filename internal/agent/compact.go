package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// compactionPrompt asks for a summary that lets the work continue without the turns
// it replaces. Worded for the model.
const compactionPrompt = `Summarise the conversation transcript above so that you can continue the work without it. Keep: the user's goals and constraints, decisions taken and why, files read or changed (with paths), commands run and their outcome, errors still open, and the next steps. Be concise and factual; do not invent anything.`

// toolOutputInTranscript caps each tool result in the transcript sent for summary: the
// summary needs what happened, not whole file dumps (a judgement call).
const toolOutputInTranscript = 2000

// ErrNothingToCompact is returned when the history is too short to summarise.
var ErrNothingToCompact = errors.New("nothing to compact yet")

// Compact summarises the older part of the prompt with the model. The summary replaces
// those messages in the prompt; the session log keeps them. instructions, when given,
// steer the summary (/compact <instructions>).
func (a *Agent) Compact(ctx context.Context, instructions string, emit func(Event)) error {
	if emit == nil {
		emit = func(Event) {}
	}
	a.mu.Lock()
	view := llm.PromptView(a.history)
	before := a.stats.ContextTokens
	a.mu.Unlock()
	n := compactionCut(view, a.opts.CompactKeepTurns)
	if n == 0 {
		return ErrNothingToCompact
	}
	emit(Event{Kind: EventCompactionStart, Text: fmt.Sprintf("summarising %d messages", n)})

	prompt := transcript(view[:n]) + "\n\n" + compactionPrompt
	if instructions != "" {
		prompt += "\nAlso follow these instructions: " + instructions
	}
	resp, err := a.opts.Provider.Stream(ctx, llm.Request{
		Model:     a.opts.Model.WireName,
		Messages:  []llm.Message{{Role: llm.RoleUser, Content: prompt}},
		SessionID: a.opts.SessionID,
	}, func(llm.StreamEvent) {})
	if err != nil {
		return fmt.Errorf("compaction call: %w", err)
	}
	summary := strings.TrimSpace(resp.Message.Content)
	if summary == "" {
		return errors.New("compaction call returned an empty summary")
	}
	a.add(llm.Message{Role: llm.RoleUser, Synthetic: true, Summary: true, Replaces: n,
		Content: "<summary of the earlier conversation>\n" + summary + "\n</summary>"})

	a.mu.Lock()
	a.stats.Usage.Add(resp.Usage)
	a.stats.Cost += a.opts.Model.Cost(resp.Usage)
	a.stats.ContextTokens = estimateTokens(llm.PromptView(a.history)) + int64(len(a.opts.SystemPrompt)/4)
	after := a.stats.ContextTokens
	a.mu.Unlock()
	emit(Event{Kind: EventCompactionEnd, Text: fmt.Sprintf("compacted %d messages: about %d → %d context tokens", n, before, after)})
	return nil
}

// compactionCut picks how many leading messages of view to summarise: everything
// before the keep-th latest message a person wrote, so the recent exchanges stay
// verbatim (at least the latest one). With fewer exchanges than that it keeps only the
// latest; when that exchange is the whole view (one long tool loop) it cuts before the
// last assistant message instead. The kept part must start at a message the provider
// accepts after a user message: a user or assistant message, never a tool result.
func compactionCut(view []llm.Message, keep int) int {
	var turns []int // indices of real user messages after the first, newest first
	for i := len(view) - 1; i > 0; i-- {
		if view[i].Role == llm.RoleUser && !view[i].Synthetic {
			turns = append(turns, i)
		}
	}
	switch keep = max(keep, 1); {
	case len(turns) >= keep:
		return turns[keep-1]
	case len(turns) > 0:
		return turns[0]
	}
	for i := len(view) - 1; i > 1; i-- {
		if view[i].Role == llm.RoleAssistant {
			return i
		}
	}
	return 0
}

// transcript renders messages as plain text for the summariser: provider-neutral, and
// free of tool-call structure that some servers reject without the tool definitions.
func transcript(msgs []llm.Message) string {
	var b strings.Builder
	b.WriteString("<transcript>\n")
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			fmt.Fprintf(&b, "[user]\n%s\n\n", m.Content)
		case llm.RoleAssistant:
			if m.Content != "" {
				fmt.Fprintf(&b, "[assistant]\n%s\n\n", m.Content)
			}
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "[assistant calls %s]\n%s\n\n", c.Name, abbreviate(c.Arguments, toolOutputInTranscript))
			}
		case llm.RoleTool:
			fmt.Fprintf(&b, "[result of %s]\n%s\n\n", m.ToolName, abbreviate(m.Content, toolOutputInTranscript))
		}
	}
	b.WriteString("</transcript>")
	return b.String()
}

// estimateTokens guesses a prompt's size at four bytes a token, the usual ratio for
// English and code, until the next call reports the real count.
func estimateTokens(msgs []llm.Message) int64 {
	var n int
	for _, m := range msgs {
		n += len(m.Content) + len(m.Reasoning)
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments)
		}
	}
	return int64(n / 4)
}
