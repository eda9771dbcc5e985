package mdterm

import (
	"strings"
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

func TestParserPanicShowsThePlainText(t *testing.T) {
	saved := parser
	parser = brokenParser{saved}
	defer func() { parser = saved }()
	got := Render("**bold** words\n\x1b[31msecond line that is long enough to wrap", 20, Options{})
	want := []string{"**bold** words", "second line that is", "long enough to wrap"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestQuoteWithTabAndBacktick(t *testing.T) {
	// goldmark v1.8.2 panicked on this; v1.8.7 parses it as a quoted backtick.
	if got := strings.Join(Render("> \t`", 40, Options{}), "\n"); !strings.Contains(got, "`") {
		t.Fatalf("got %q", got)
	}
}
