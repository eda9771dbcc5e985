// Package mdext adds GitHub's Markdown extensions that answers use (tables,
// strikethrough, task lists) to a goldmark parser, producing the node types
// of goldmark/extension/ast so renderers need not care where they came from.
//
// goldmark's own extension package is not imported on purpose: its package
// init compiles the linkify regular expressions, whose {1,256} repetitions
// cost every start of every albert-code command about 4 ms, a tenth of the
// process's whole start, for a feature we do not use.
package mdext

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// GFM is the extender for goldmark.WithExtensions.
var GFM goldmark.Extender = gfm{}

type gfm struct{}

func (gfm) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		// The task check box must be tried before the link parser (200) reads
		// "[ ]" as the start of a link.
		parser.WithInlineParsers(util.Prioritized(taskParser{}, 0), util.Prioritized(strikeParser{}, 500)),
		parser.WithParagraphTransformers(util.Prioritized(tableTransformer{}, 200)),
		parser.WithASTTransformers(util.Prioritized(codePipes{}, 0)),
	)
}

// NewParser returns a goldmark parser with GFM.
func NewParser() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(GFM)).Parser()
}
