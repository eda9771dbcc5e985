package mdext

import (
	"bytes"

	gast "github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// codePipes makes "\\|" in a table cell's code span a plain pipe (GFM): the
// backslash only kept the pipe from ending the cell, and code spans, where
// backslash escapes do not apply, would otherwise show it.
type codePipes struct{}

func (codePipes) Transform(doc *gast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	var spans []*gast.CodeSpan
	_ = gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering {
			return gast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *gast.Paragraph, *gast.Heading, *gast.FencedCodeBlock, *gast.CodeBlock, *gast.HTMLBlock:
			return gast.WalkSkipChildren, nil // no table inside
		case *gast.CodeSpan:
			if _, ok := n.Parent().(*east.TableCell); ok {
				spans = append(spans, n)
			}
			return gast.WalkSkipChildren, nil
		}
		return gast.WalkContinue, nil
	})
	for _, span := range spans {
		for c := span.FirstChild(); c != nil; {
			next := c.NextSibling()
			if t, ok := c.(*gast.Text); ok {
				dropPipeEscapes(span, t, src)
			}
			c = next
		}
	}
}

// dropPipeEscapes splits t around each backslash that precedes a pipe.
func dropPipeEscapes(span *gast.CodeSpan, t *gast.Text, src []byte) {
	for {
		seg := t.Segment
		i := bytes.Index(seg.Value(src), []byte(`\|`))
		if i < 0 {
			return
		}
		rest := gast.NewTextSegment(text.NewSegment(seg.Start+i+1, seg.Stop))
		t.Segment = seg.WithStop(seg.Start + i)
		span.InsertAfter(span, t, rest)
		t = rest
	}
}
