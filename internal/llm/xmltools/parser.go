// Package xmltools recovers tool calls that Qwen-family models served by vLLM write
// as XML text in the answer instead of the structured tool_calls field:
//
//	<tool_call><function=NAME><parameter=KEY>VALUE</parameter>...</function></tool_call>
//
// The text arrives as a stream of tiny deltas cut at any byte, so the Parser is
// incremental: it releases ordinary text as soon as it cannot be the start of a tag,
// and holds back only what still could be.
package xmltools

import "strings"

// Tags the parser recognises. The opening function tag has no closing '>' because
// the function name follows the '='.
const (
	openCall     = "<tool_call>"
	closeCall    = "</tool_call>"
	openFunc     = "<function="
	closeFunc    = "</function>"
	openParam    = "<parameter="
	closeParam   = "</parameter>"
	wsCharacters = " \t\r\n"
)

// Call is one tool call recovered from the text.
type Call struct {
	Name string
	// Arguments is a JSON object, parameters in the order the model wrote them.
	Arguments string
}

type state int

const (
	// stateText: outside any block; text is released up to a possible tag start.
	stateText state = iota
	// stateWrapped: inside <tool_call>...; the block ends at </tool_call>.
	stateWrapped
	// stateBare: inside a <function=...> block that had no wrapper; it ends at </function>.
	stateBare
	// stateAfterBare: a bare block just closed; an orphan </tool_call> (possibly after
	// whitespace) belongs to it and is swallowed.
	stateAfterBare
)

// Parser splits a stream of model text into plain text and tool calls. The zero
// value is ready to use. A Parser is not safe for concurrent use.
type Parser struct {
	buf   string
	state state
	// searched is how much of buf (inside a block) is known not to contain the
	// closing tag, so each Feed scans only new bytes.
	searched int
	// stringParam, when set, names the parameters whose values stay strings even
	// when they read as JSON.
	stringParam func(tool, param string) bool
}

// Option configures a Parser.
type Option func(*Parser)

// WithStringParams tells the parser which parameters the tool's schema declares as
// strings. Without it a value is JSON when it parses as JSON, so "42" becomes a
// number and a JSON file's content becomes an object.
func WithStringParams(isString func(tool, param string) bool) Option {
	return func(p *Parser) { p.stringParam = isString }
}

// NewParser returns a parser in its initial, outside-any-tag state.
func NewParser(opts ...Option) *Parser {
	p := &Parser{}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Feed consumes the next chunk. It returns the text that is now certainly not part
// of a tool call, and the calls completed by this chunk.
func (p *Parser) Feed(chunk string) (string, []Call) {
	p.buf += chunk
	var text strings.Builder
	var calls []Call
	for p.step(&text, &calls) {
	}
	return text.String(), calls
}

// Flush ends the stream: held-back text is released, and a truncated block yields
// its call when the function name and at least the block's finished parameters are
// known. A block too broken to read is released as text, so nothing is lost.
func (p *Parser) Flush() (string, []Call) {
	var text strings.Builder
	var calls []Call
	for p.step(&text, &calls) {
	}
	switch p.state {
	case stateWrapped, stateBare:
		body := p.buf
		if p.state == stateWrapped {
			body = strings.TrimPrefix(body, openCall)
		}
		if found := p.parseBlock(body, true); len(found) > 0 {
			calls = append(calls, found...)
		} else {
			text.WriteString(p.buf)
		}
	default:
		text.WriteString(p.buf)
	}
	p.buf, p.state, p.searched = "", stateText, 0
	return text.String(), calls
}

// step makes one move of the state machine and reports whether another may follow
// without more input.
func (p *Parser) step(text *strings.Builder, calls *[]Call) bool {
	switch p.state {
	case stateText:
		return p.stepText(text)
	case stateAfterBare:
		return p.stepAfterBare()
	default:
		return p.stepBlock(text, calls)
	}
}

func (p *Parser) stepText(text *strings.Builder) bool {
	i := strings.IndexByte(p.buf, '<')
	if i < 0 {
		text.WriteString(p.buf)
		p.buf = ""
		return false
	}
	text.WriteString(p.buf[:i])
	p.buf = p.buf[i:]
	switch matchTag(p.buf, openCall, openFunc) {
	case openCall:
		p.state, p.searched = stateWrapped, len(openCall)
		return true
	case openFunc:
		p.state, p.searched = stateBare, 0
		return true
	case partialTag:
		return false
	}
	text.WriteByte('<')
	p.buf = p.buf[1:]
	return true
}

func (p *Parser) stepAfterBare() bool {
	rest := strings.TrimLeft(p.buf, wsCharacters)
	if rest == "" {
		return false
	}
	switch matchTag(rest, closeCall) {
	case closeCall:
		p.buf = rest[len(closeCall):]
	case partialTag:
		return false
	}
	p.state = stateText
	return true
}

func (p *Parser) stepBlock(text *strings.Builder, calls *[]Call) bool {
	end := closeCall
	if p.state == stateBare {
		end = closeFunc
	}
	from := max(0, p.searched-len(end)+1)
	j := strings.Index(p.buf[from:], end)
	if j < 0 {
		p.searched = len(p.buf)
		return false
	}
	stop := from + j + len(end)
	block := p.buf[:stop]
	p.buf = p.buf[stop:]
	p.searched = 0
	wrapped := p.state == stateWrapped
	if wrapped {
		p.state = stateText
		block = strings.TrimSuffix(strings.TrimPrefix(block, openCall), closeCall)
	} else {
		p.state = stateAfterBare
	}
	found := p.parseBlock(block, false)
	if len(found) == 0 {
		// Not a call after all (the model wrote about the tag): keep it as text.
		text.WriteString(p.rawBlock(block, wrapped))
		return true
	}
	*calls = append(*calls, found...)
	return true
}

func (p *Parser) rawBlock(block string, wrapped bool) string {
	if wrapped {
		return openCall + block + closeCall
	}
	return block
}

// partialTag is matchTag's answer when s is a strict prefix of a tag: more input
// may complete it.
const partialTag = "\x00partial"

// matchTag returns the tag s starts with, partialTag when s could still become one
// of them, or "" when it cannot.
func matchTag(s string, tags ...string) string {
	partial := false
	for _, t := range tags {
		if strings.HasPrefix(s, t) {
			return t
		}
		if len(s) < len(t) && strings.HasPrefix(t, s) {
			partial = true
		}
	}
	if partial {
		return partialTag
	}
	return ""
}
