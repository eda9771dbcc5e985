package tgmd

import (
	"testing"

	"github.com/yuin/goldmark/ast"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// brokenParser panics like goldmark v1.8.2 did on "> \t`".
type brokenParser struct{ gparser.Parser }

func (brokenParser) Parse(text.Reader, ...gparser.ParseOption) ast.Node {
	panic("index out of range [-1]")
}

func TestParserPanicSendsThePlainText(t *testing.T) {
	saved := parser
	parser = brokenParser{saved}
	defer func() { parser = saved }()
	msgs := Split("**bold** <b> & more", 0)
	if len(msgs) != 1 || msgs[0].HTML != "**bold** &lt;b&gt; &amp; more" || msgs[0].Plain != "**bold** <b> & more" {
		t.Fatalf("got %+v", msgs)
	}
}

func TestQuoteWithTabAndBacktick(t *testing.T) {
	// goldmark v1.8.2 panicked on this; v1.8.7 parses it as a quoted backtick.
	if got := Render("> \t`"); got != "<blockquote>`</blockquote>" {
		t.Fatalf("got %q", got)
	}
}
