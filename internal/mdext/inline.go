package mdext

import (
	gast "github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// strikeParser reads ~x~ and ~~x~~ (one or two tildes; three or more are
// text), matching runs as goldmark's extension does.
type strikeParser struct{}

func (strikeParser) Trigger() []byte { return []byte{'~'} }

func (strikeParser) Parse(_ gast.Node, block text.Reader, pc parser.Context) gast.Node {
	before := block.PrecendingCharacter()
	line, seg := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 1, tildes{})
	if d == nil || d.OriginalLength > 2 || before == '~' {
		return nil
	}
	d.Segment = seg.WithStop(seg.Start + d.OriginalLength)
	block.Advance(d.OriginalLength)
	pc.PushDelimiter(d)
	return d
}

func (strikeParser) CloseBlock(gast.Node, parser.Context) {}

// tildes is the delimiter processor of strikethrough runs.
type tildes struct{}

func (tildes) IsDelimiter(b byte) bool { return b == '~' }

func (tildes) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

func (tildes) OnMatch(int) gast.Node { return east.NewStrikethrough() }

// taskParser reads the "[ ]" or "[x]" that opens the first paragraph of a
// list item.
type taskParser struct{}

func (taskParser) Trigger() []byte { return []byte{'['} }

func (taskParser) Parse(parent gast.Node, block text.Reader, _ parser.Context) gast.Node {
	item, ok := parent.Parent().(*gast.ListItem)
	if !ok || item.FirstChild() != parent || parent.HasChildren() {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 3 || line[2] != ']' || len(line) > 3 && !isSpace(line[3]) {
		return nil
	}
	var checked bool
	switch line[1] {
	case ' ', '\t':
	case 'x', 'X':
		checked = true
	default:
		return nil
	}
	n := 3
	for n < len(line) && isSpace(line[n]) {
		n++
	}
	block.Advance(n)
	return east.NewTaskCheckBox(checked)
}

func (taskParser) CloseBlock(gast.Node, parser.Context) {}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
