package openaicompat

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"strings"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/xmltools"
)

// assembler turns chunks into events, in arrival order, and into the final answer.
type assembler struct {
	emit      func(llm.StreamEvent)
	model     string
	content   strings.Builder
	reasoning strings.Builder
	calls     []*callSlot
	// byIndex maps a wire tool call index to its slot in calls.
	byIndex map[int]int
	// lastNative is the slot that index-less fragments continue, -1 when none.
	lastNative int
	finish     string
	usage      llm.Usage
	xml        *xmltools.Parser
	xmlCalls   int
}

// callSlot gathers one tool call. Its position in assembler.calls is the Index of
// its events.
type callSlot struct {
	wireID  string
	id      string
	name    string
	args    strings.Builder
	started bool
}

func (p *Provider) newAssembler(req llm.Request, emit func(llm.StreamEvent)) *assembler {
	a := &assembler{emit: emit, model: req.Model, byIndex: map[int]int{}, lastNative: -1}
	if p.opts.XMLToolCalls {
		a.xml = xmltools.NewParser(xmltools.WithStringParams(stringParams(req.Tools)))
	}
	return a
}

func (a *assembler) add(c *wireChunk) {
	if c.Model != "" {
		a.model = c.Model
	}
	if u := c.Usage; u != nil {
		a.usage = llm.Usage{
			InputTokens:       u.PromptTokens,
			OutputTokens:      u.CompletionTokens,
			CachedInputTokens: u.PromptTokensDetails.CachedTokens,
			ReasoningTokens:   u.CompletionTokensDetails.ReasoningTokens,
		}
	}
	for i := range c.Choices {
		choice := &c.Choices[i]
		if choice.Index != 0 {
			continue // we never ask for n > 1
		}
		d := &choice.Delta
		if r := cmp.Or(d.ReasoningContent, d.Reasoning); r != "" {
			a.reasoning.WriteString(r)
			a.emit(llm.StreamEvent{Kind: llm.EventReasoningDelta, Text: r})
		}
		if d.Content != "" {
			a.addContent(d.Content)
		}
		for j := range d.ToolCalls {
			a.addToolDelta(&d.ToolCalls[j])
		}
		if choice.FinishReason != "" {
			a.finish = choice.FinishReason
		}
	}
}

func (a *assembler) addContent(text string) {
	if a.xml == nil {
		a.addText(text)
		return
	}
	text, calls := a.xml.Feed(text)
	a.addText(text)
	a.addXMLCalls(calls)
}

func (a *assembler) addText(text string) {
	if text == "" {
		return
	}
	a.content.WriteString(text)
	a.emit(llm.StreamEvent{Kind: llm.EventTextDelta, Text: text})
}

func (a *assembler) addXMLCalls(calls []xmltools.Call) {
	for _, c := range calls {
		s := &callSlot{id: "call_xml_" + randomHex(), name: c.Name}
		s.args.WriteString(c.Arguments)
		a.calls = append(a.calls, s)
		a.xmlCalls++
		a.start(len(a.calls) - 1)
	}
}

func (a *assembler) addToolDelta(tc *toolCallDelta) {
	pos := a.slotFor(tc)
	s := a.calls[pos]
	if tc.ID != "" && s.wireID == "" {
		s.wireID = tc.ID
	}
	if tc.Function.Name != "" && !s.started {
		// Set, not append: some servers repeat the whole name in every fragment.
		s.name = tc.Function.Name
	}
	if args := tc.Function.Arguments; args != "" {
		s.args.WriteString(args)
		if s.started {
			a.emit(llm.StreamEvent{Kind: llm.EventToolCallDelta, Index: pos, Text: args})
		}
	}
	if !s.started && s.name != "" {
		a.start(pos)
	}
}

// slotFor finds the call a fragment belongs to. A known id always wins. OpenAI
// numbers calls with index; a new id at an index already taken still starts a call,
// because some compatibility layers number every parallel call 0. vLLM may omit
// index: then a fragment with a new id starts a call and one without an id
// continues the last.
func (a *assembler) slotFor(tc *toolCallDelta) int {
	if tc.ID != "" {
		for pos, s := range a.calls {
			if s.wireID == tc.ID {
				return pos
			}
		}
	}
	if tc.Index != nil {
		if pos, ok := a.byIndex[*tc.Index]; ok && (tc.ID == "" || a.calls[pos].wireID == "") {
			return pos
		}
		pos := a.newSlot()
		a.byIndex[*tc.Index] = pos
		return pos
	}
	if tc.ID == "" && a.lastNative >= 0 {
		return a.lastNative
	}
	return a.newSlot()
}

func (a *assembler) newSlot() int {
	a.calls = append(a.calls, &callSlot{})
	a.lastNative = len(a.calls) - 1
	return a.lastNative
}

// start announces a call once its name is known, with the arguments gathered so far.
func (a *assembler) start(pos int) {
	s := a.calls[pos]
	s.started = true
	if s.id == "" {
		s.id = s.wireID
	}
	if s.id == "" {
		s.id = "call_" + randomHex()
	}
	a.emit(llm.StreamEvent{Kind: llm.EventToolCallStart, Index: pos, ID: s.id, Name: s.name})
	if s.args.Len() > 0 {
		a.emit(llm.StreamEvent{Kind: llm.EventToolCallDelta, Index: pos, Text: s.args.String()})
	}
}

// finished reports whether the server said the answer is complete.
func (a *assembler) finished() bool { return a.finish != "" }

// response ends the stream: text and calls the XML parser still held come out,
// and the answer is assembled.
func (a *assembler) response() *llm.Response {
	if a.xml != nil {
		text, calls := a.xml.Flush()
		a.addText(text)
		a.addXMLCalls(calls)
	}
	msg := llm.Message{
		Role:      llm.RoleAssistant,
		Content:   a.content.String(),
		Reasoning: a.reasoning.String(),
		Model:     a.model,
	}
	for pos, s := range a.calls {
		if !s.started {
			// Arguments without a name: still passed on, so the tool layer can
			// tell the model its call was malformed instead of losing it.
			a.start(pos)
		}
		msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: s.id, Name: s.name, Arguments: s.args.String()})
	}
	usage := a.usage
	msg.Usage = &usage
	finish := a.finish
	if a.xmlCalls > 0 && finish == "stop" {
		// The server saw text; the caller should see what the model meant.
		finish = "tool_calls"
	}
	return &llm.Response{Message: msg, Usage: usage, FinishReason: finish}
}

// randomHex returns 12 random hex digits for ids the server did not give.
func randomHex() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}
