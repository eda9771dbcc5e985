package vertex

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// assembler turns stream chunks into canonical events, in arrival order, and into
// the final answer.
type assembler struct {
	emit      func(llm.StreamEvent)
	model     string
	text      strings.Builder
	reasoning strings.Builder
	calls     []llm.ToolCall
	sigs      signatures
	usage     *usageMetadata
	finish    string
}

func newAssembler(model string, emit func(llm.StreamEvent)) *assembler {
	return &assembler{emit: emit, model: model}
}

// add takes one chunk. A prompt refused outright (promptFeedback.blockReason, no
// candidate) is an error: there is no answer to give, and trying again will not
// change that.
func (a *assembler) add(c *chunk) error {
	if c.ModelVersion != "" {
		a.model = c.ModelVersion
	}
	if c.UsageMetadata != nil {
		a.usage = c.UsageMetadata
	}
	if fb := c.PromptFeedback; fb != nil && fb.BlockReason != "" && len(c.Candidates) == 0 {
		msg := "the prompt was blocked: " + fb.BlockReason
		if fb.BlockReasonMessage != "" {
			msg += ": " + fb.BlockReasonMessage
		}
		return &llm.APIError{Status: http.StatusBadRequest, Message: msg}
	}
	for _, cand := range c.Candidates {
		if cand.Index != 0 {
			continue // we never ask for more than one candidate
		}
		if cand.Content != nil {
			for _, part := range cand.Content.Parts {
				a.addPart(part)
			}
		}
		if cand.FinishReason != "" {
			a.finish = cand.FinishReason
		}
	}
	return nil
}

func (a *assembler) addPart(p *part) {
	if p == nil {
		return
	}
	switch {
	case p.FunctionCall != nil:
		fc := p.FunctionCall
		id := fc.ID
		if id == "" {
			id = "call_" + randomHex()
		}
		args := "{}"
		if len(fc.Args) > 0 {
			raw, _ := json.Marshal(fc.Args) // decoded from JSON, so it encodes back
			args = string(raw)
		}
		pos := len(a.calls)
		a.calls = append(a.calls, llm.ToolCall{ID: id, Name: fc.Name, Arguments: args})
		if len(p.ThoughtSignature) > 0 {
			if a.sigs.Calls == nil {
				a.sigs.Calls = map[int]string{}
			}
			a.sigs.Calls[pos] = stringOf(p.ThoughtSignature)
		}
		a.emit(llm.StreamEvent{Kind: llm.EventToolCallStart, Index: pos, ID: id, Name: fc.Name})
		a.emit(llm.StreamEvent{Kind: llm.EventToolCallDelta, Index: pos, Text: args})
		return
	case p.Thought:
		if p.Text != "" {
			a.reasoning.WriteString(p.Text)
			a.emit(llm.StreamEvent{Kind: llm.EventReasoningDelta, Text: p.Text})
		}
	case p.Text != "":
		a.text.WriteString(p.Text)
		a.emit(llm.StreamEvent{Kind: llm.EventTextDelta, Text: p.Text})
	}
	if len(p.ThoughtSignature) > 0 {
		a.sigs.Text = stringOf(p.ThoughtSignature)
	}
}

// finished reports whether a finishReason arrived: a Gemini stream has no end
// marker, so a body cut short is only told apart by its absence.
func (a *assembler) finished() bool { return a.finish != "" }

func (a *assembler) response() *llm.Response {
	msg := llm.Message{
		Role:               llm.RoleAssistant,
		Content:            a.text.String(),
		Reasoning:          a.reasoning.String(),
		ReasoningSignature: a.sigs.encode(),
		ToolCalls:          a.calls,
		Model:              a.model,
	}
	usage := canonicalUsage(a.usage)
	msg.Usage = &usage
	return &llm.Response{Message: msg, Usage: usage, FinishReason: finishReason(a.finish, len(a.calls) > 0)}
}

// canonicalUsage counts thoughts as output, as Google bills them.
func canonicalUsage(u *usageMetadata) llm.Usage {
	if u == nil {
		return llm.Usage{}
	}
	return llm.Usage{
		InputTokens:       u.PromptTokenCount + u.ToolUsePromptTokenCount,
		OutputTokens:      u.CandidatesTokenCount + u.ThoughtsTokenCount,
		CachedInputTokens: u.CachedContentTokenCount,
		ReasoningTokens:   u.ThoughtsTokenCount,
	}
}

// finishReason maps Gemini's reasons onto OpenAI's names. Gemini says STOP after
// function calls too; the rest of the program expects tool_calls then.
func finishReason(r string, calls bool) string {
	switch r {
	case "STOP":
		if calls {
			return "tool_calls"
		}
		return "stop"
	case "MAX_TOKENS":
		return "length"
	case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT":
		return "content_filter"
	}
	return strings.ToLower(r)
}

// randomHex returns 12 random hex digits for call ids the server did not give.
func randomHex() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}
