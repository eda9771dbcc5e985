package anthropic

import (
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// event is one stream event; which fields are set depends on Type.
type event struct {
	Type    string `json:"type"`
	Message *struct {
		Model string    `json:"model"`
		Usage wireUsage `json:"usage"`
	} `json:"message"`
	Index        int64       `json:"index"`
	ContentBlock *startBlock `json:"content_block"`
	Delta        delta       `json:"delta"`
	Usage        *wireUsage  `json:"usage"`
	Error        *wireError  `json:"error"`
}

// startBlock is a content block as content_block_start announces it.
type startBlock struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
	Data      string `json:"data"`
	ID        string `json:"id"`
	Name      string `json:"name"`
}

// delta is a content_block_delta's delta, or message_delta's (stop_reason).
type delta struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Thinking    string `json:"thinking"`
	Signature   string `json:"signature"`
	PartialJSON string `json:"partial_json"`
	StopReason  string `json:"stop_reason"`
}

// wireUsage is usage as message_start and message_delta send it; message_delta
// may leave counts out, hence pointers.
type wireUsage struct {
	InputTokens              *int64 `json:"input_tokens"`
	OutputTokens             *int64 `json:"output_tokens"`
	CacheReadInputTokens     *int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens *int64 `json:"cache_creation_input_tokens"`
}

// usage is the message's counts so far.
type usage struct {
	input, output, cacheRead, cacheCreation int64
}

// merge takes the counts present in u: those of message_delta are totals for the
// whole message, and absent ones keep message_start's.
func (s *usage) merge(u *wireUsage) {
	if u == nil {
		return
	}
	for _, f := range []struct {
		dst *int64
		src *int64
	}{{&s.input, u.InputTokens}, {&s.output, u.OutputTokens},
		{&s.cacheRead, u.CacheReadInputTokens}, {&s.cacheCreation, u.CacheCreationInputTokens}} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
}

// assembler turns stream events into canonical events, in arrival order, and into
// the final answer.
type assembler struct {
	emit     func(llm.StreamEvent)
	model    string
	text     strings.Builder
	thinking []thinkingBlock
	calls    []*toolCall
	// blocks maps a wire content block index to what it feeds.
	blocks  map[int64]blockRef
	usage   usage
	stop    string
	stopped bool
}

type blockKind int

const (
	blockText blockKind = iota + 1
	blockThinking
	blockToolUse
	blockOther
)

// blockRef says what a content block index feeds: pos is its place in thinking
// or calls.
type blockRef struct {
	kind blockKind
	pos  int
}

type toolCall struct {
	id, name string
	args     strings.Builder
}

func newAssembler(model string, emit func(llm.StreamEvent)) *assembler {
	return &assembler{emit: emit, model: model, blocks: map[int64]blockRef{}}
}

// add takes one event. It fails on an event that contradicts the stream so far,
// such as a delta for a block that never started.
func (a *assembler) add(ev *event) error {
	switch ev.Type {
	case "message_start":
		if ev.Message != nil {
			if ev.Message.Model != "" {
				a.model = ev.Message.Model
			}
			a.usage.merge(&ev.Message.Usage)
		}
	case "content_block_start":
		if ev.ContentBlock == nil {
			return fmt.Errorf("content_block_start for block %d has no content_block", ev.Index)
		}
		a.startBlock(ev.Index, ev.ContentBlock)
	case "content_block_delta":
		ref, ok := a.blocks[ev.Index]
		if !ok {
			return fmt.Errorf("content_block_delta for block %d, which never started", ev.Index)
		}
		a.addDelta(ref, ev.Delta)
	case "message_delta":
		if ev.Delta.StopReason != "" {
			a.stop = ev.Delta.StopReason
		}
		a.usage.merge(ev.Usage)
	case "message_stop":
		a.stopped = true
	}
	return nil
}

func (a *assembler) startBlock(index int64, cb *startBlock) {
	switch cb.Type {
	case "text":
		a.blocks[index] = blockRef{kind: blockText}
		a.addText(cb.Text)
	case "thinking":
		a.thinking = append(a.thinking, thinkingBlock{})
		ref := blockRef{kind: blockThinking, pos: len(a.thinking) - 1}
		a.blocks[index] = ref
		a.addDelta(ref, delta{Type: "thinking_delta", Thinking: cb.Thinking})
		a.addDelta(ref, delta{Type: "signature_delta", Signature: cb.Signature})
	case "redacted_thinking":
		a.thinking = append(a.thinking, thinkingBlock{redacted: cb.Data})
		a.blocks[index] = blockRef{kind: blockOther}
	case "tool_use":
		a.calls = append(a.calls, &toolCall{id: cb.ID, name: cb.Name})
		pos := len(a.calls) - 1
		a.blocks[index] = blockRef{kind: blockToolUse, pos: pos}
		a.emit(llm.StreamEvent{Kind: llm.EventToolCallStart, Index: pos, ID: cb.ID, Name: cb.Name})
	default:
		// Server tools and blocks we do not use: their deltas are ignored.
		a.blocks[index] = blockRef{kind: blockOther}
	}
}

func (a *assembler) addDelta(ref blockRef, d delta) {
	switch {
	case ref.kind == blockText && d.Type == "text_delta":
		a.addText(d.Text)
	case ref.kind == blockThinking && d.Type == "thinking_delta" && d.Thinking != "":
		a.thinking[ref.pos].text += d.Thinking
		a.emit(llm.StreamEvent{Kind: llm.EventReasoningDelta, Text: d.Thinking})
	case ref.kind == blockThinking && d.Type == "signature_delta":
		a.thinking[ref.pos].signature += d.Signature
	case ref.kind == blockToolUse && d.Type == "input_json_delta" && d.PartialJSON != "":
		a.calls[ref.pos].args.WriteString(d.PartialJSON)
		a.emit(llm.StreamEvent{Kind: llm.EventToolCallDelta, Index: ref.pos, Text: d.PartialJSON})
	}
}

func (a *assembler) addText(text string) {
	if text == "" {
		return
	}
	a.text.WriteString(text)
	a.emit(llm.StreamEvent{Kind: llm.EventTextDelta, Text: text})
}

// finished reports whether message_stop arrived.
func (a *assembler) finished() bool { return a.stopped }

func (a *assembler) response() *llm.Response {
	reasoning, signature := encodeThinking(a.thinking)
	msg := llm.Message{
		Role:               llm.RoleAssistant,
		Content:            a.text.String(),
		Reasoning:          reasoning,
		ReasoningSignature: signature,
		Model:              a.model,
	}
	for _, c := range a.calls {
		args := c.args.String()
		if args == "" {
			// A tool without arguments streams no input_json_delta at all.
			args = "{}"
		}
		msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: c.id, Name: c.name, Arguments: args})
	}
	usage := canonicalUsage(a.usage)
	msg.Usage = &usage
	return &llm.Response{Message: msg, Usage: usage, FinishReason: finishReason(a.stop)}
}

// canonicalUsage counts every prompt token as input, as OpenAI's prompt_tokens
// does: Anthropic's input_tokens leaves out the tokens read from or written to
// the cache, which still fill the context window.
func canonicalUsage(u usage) llm.Usage {
	return llm.Usage{
		InputTokens:       u.input + u.cacheRead + u.cacheCreation,
		OutputTokens:      u.output,
		CachedInputTokens: u.cacheRead,
	}
}

// finishReason maps stop_reason onto the OpenAI names the rest of the program
// (and the serve layer's clients) know; others pass through.
func finishReason(stop string) string {
	switch stop {
	case "end_turn", "stop_sequence":
		return "stop"
	case "tool_use":
		return "tool_calls"
	case "max_tokens", "model_context_window_exceeded":
		return "length"
	case "refusal":
		return "content_filter"
	}
	return stop
}
