// Package mdterm renders Markdown for a terminal: headings, emphasis, lists, quotes,
// tables, links and code blocks highlighted with the tree-sitter grammars the code
// graph already carries. It replaces Glamour, whose syntax highlighter (chroma)
// parses some 250 lexer and style definitions when the program starts: about 20 ms
// on every start of every command, the terminal UI or not.
package mdterm

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/etalab-ia/albert-code/internal/mdext"
)

// Options shape one rendering.
type Options struct {
	// Color allows colours; without it only bold, italics, underline and dim remain.
	Color bool
}

var parser = mdext.NewParser()

// Render renders src wrapped to width columns, as lines with no trailing newline.
// Every line fits width, except where a table cannot shrink further.
func Render(src string, width int, o Options) (lines []string) {
	width = max(width, 8)
	defer func() {
		// A parser bug costs the formatting, not the session (goldmark before
		// v1.8.7 indexed out of range on "> \t`"): the text shows as it came.
		if recover() != nil {
			lines = nil
			for _, l := range strings.Split(ansi.Strip(src), "\n") {
				lines = append(lines, wrap(l, width)...)
			}
		}
	}()
	source := []byte(src)
	doc := parser.Parse(text.NewReader(source))
	r := &renderer{src: source, o: o}
	return r.children(doc, width)
}

type renderer struct {
	src []byte
	o   Options
}

// children renders the block children of n, separated by blank lines.
func (r *renderer) children(n ast.Node, width int) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := r.block(c, width)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 && !tight(c) {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// tight reports whether block c follows its previous sibling with no blank line:
// the items of a tight list, and the paragraphs inside them.
func tight(c ast.Node) bool {
	if li, ok := c.(*ast.ListItem); ok {
		if l, ok := li.Parent().(*ast.List); ok {
			return l.IsTight
		}
	}
	_, inItem := c.Parent().(*ast.ListItem)
	if inItem {
		if l, ok := c.Parent().Parent().(*ast.List); ok && l.IsTight {
			return true
		}
	}
	return false
}

func (r *renderer) block(n ast.Node, width int) []string {
	switch n := n.(type) {
	case *ast.Heading:
		st := style{bold: true, fg: colHeading}
		if n.Level > 2 {
			st.fg = -1
		}
		prefix := strings.Repeat("#", n.Level) + " "
		return wrap(st.apply(prefix, r.o.Color)+r.inline(n, st), width)
	case *ast.Paragraph, *ast.TextBlock:
		return wrap(r.inline(n, plain), width)
	case *ast.ThematicBreak:
		return []string{fg(colRule).apply(strings.Repeat("─", width), r.o.Color)}
	case *ast.Blockquote:
		bar := style{fg: colQuote, dim: true}.apply("│ ", r.o.Color)
		return prefixed(r.children(n, width-2), bar, bar)
	case *ast.List:
		return r.list(n, width)
	case *ast.FencedCodeBlock:
		return r.code(string(n.Language(r.src)), n.Lines(), width)
	case *ast.CodeBlock:
		return r.code("", n.Lines(), width)
	case *ast.HTMLBlock:
		var b strings.Builder
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			b.Write(seg.Value(r.src))
		}
		return wrap(strings.TrimRight(b.String(), "\n"), width)
	case *east.Table:
		return r.table(n, width)
	}
	// Anything else: its children, so no text is ever dropped.
	return r.children(n, width)
}

func (r *renderer) list(l *ast.List, width int) []string {
	var out []string
	num := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if l.IsOrdered() {
			marker = itoa(num) + ". "
			num++
		}
		indent := strings.Repeat(" ", ansi.StringWidth(marker))
		lines := r.children(item, width-len(indent))
		if len(lines) == 0 {
			lines = []string{""}
		}
		if len(out) > 0 && !l.IsTight {
			out = append(out, "")
		}
		out = append(out, prefixed(lines, fg(colHeading).apply(marker, r.o.Color), indent)...)
	}
	return out
}

// prefixed puts first before the first line and rest before the others.
func prefixed(lines []string, first, rest string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if l == "" {
			out[i] = strings.TrimRight(p, " ")
			continue
		}
		out[i] = p + l
	}
	return out
}

// wrap cuts a styled paragraph into lines of at most width columns, at word
// boundaries when it can, keeping hard line breaks.
func wrap(s string, width int) []string {
	return balance(strings.Split(ansi.Wrap(s, width, ""), "\n"))
}
