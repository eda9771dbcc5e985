package tgmd

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/etalab-ia/albert-code/internal/mdext"
)

var parser = mdext.NewParser()

// rule stands for a thematic break: Telegram has no <hr>.
const rule = "──────────"

// A quote longer than this many bytes or lines is sent expandable, folded
// under a "show more": a judgement, about a phone screen of text.
const (
	expandableBytes = 1000
	expandableLines = 12
)

// maxIndent caps the indentation of nested lists, in spaces: deeper levels
// align with the last one. A judgement: a phone line holds about 35
// characters, and without a cap a list nested n deep costs n² bytes.
const maxIndent = 12

var (
	tagBold   = &tag{open: "<b>", close: "</b>", kind: kindFormat}
	tagItalic = &tag{open: "<i>", close: "</i>", kind: kindFormat}
	tagStrike = &tag{open: "<s>", close: "</s>", kind: kindFormat}
	tagCode   = &tag{open: "<code>", close: "</code>", kind: kindCode}
	tagPre    = &tag{open: "<pre>", close: "</pre>", kind: kindCode}
)

// render parses a cleaned Markdown source and renders it; the writer keeps
// what a following piece needs to know (a pending sticky separator).
func render(src []byte) (r *renderer) {
	defer func() {
		// A parser bug costs the formatting, not the bot (goldmark before
		// v1.8.7 indexed out of range on "> \t`"): the text goes as it came.
		if recover() != nil {
			r = &renderer{src: src}
			r.w.bytes(src)
		}
	}()
	doc := parser.Parse(text.NewReader(src))
	r = &renderer{src: src}
	// Sized from the source: the text is about as long, a run every ~20 bytes.
	r.w.vis.Grow(len(src))
	r.w.s.runs = make([]run, 0, len(src)/20+1)
	r.children(doc)
	return r
}

type renderer struct {
	src []byte
	w   writer
}

// children renders the blocks of n: a blank line between them, a line break
// only between the items of a tight list and the blocks inside them.
func (r *renderer) children(n ast.Node) {
	lines := 2
	if isTight(n) {
		lines = 1
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c != n.FirstChild() {
			r.w.separate(lines)
		}
		r.block(c)
	}
}

func isTight(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.List:
		return n.IsTight
	case *ast.ListItem:
		l, ok := n.Parent().(*ast.List)
		return ok && l.IsTight
	}
	return false
}

func (r *renderer) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Heading:
		done := r.w.open(tagBold)
		r.inlines(n)
		done()
		r.w.sepSticky = true
	case *ast.Paragraph, *ast.TextBlock:
		r.inlines(n)
	case *ast.ThematicBreak:
		r.w.text(rule)
	case *ast.Blockquote:
		r.quote(n)
	case *ast.List:
		r.list(n)
	case *ast.FencedCodeBlock:
		r.code(n.Lines(), language(string(n.Language(r.src))))
	case *ast.CodeBlock:
		r.code(n.Lines(), "")
	case *ast.HTMLBlock:
		r.lines(n.Lines(), n.HasClosure(), n.ClosureLine)
	case *east.Table:
		r.table(n)
	default:
		// Anything else: its children, so no text is ever dropped.
		r.children(n)
	}
}

// quote renders a blockquote; Telegram does not nest them, so a quote inside
// a quote continues the outer one.
func (r *renderer) quote(n *ast.Blockquote) {
	if r.w.inside(kindQuote) {
		r.children(n)
		return
	}
	t := &tag{open: "<blockquote>", close: "</blockquote>", kind: kindQuote}
	done := r.w.open(t)
	start := r.w.vis.Len()
	r.children(n)
	done()
	body := r.w.vis.String()[start:]
	if len(body) > expandableBytes || strings.Count(body, "\n") >= expandableLines {
		t.open = "<blockquote expandable>"
	}
}

func (r *renderer) list(l *ast.List) {
	num := l.Start
	outer := r.w.indent
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		if item != l.FirstChild() {
			r.w.separate(sepLines(l))
		}
		marker := "• "
		if l.IsOrdered() {
			marker = strconv.Itoa(num) + ". "
			num++
		}
		r.w.text(marker)
		if len(outer) < maxIndent {
			r.w.indent = outer + strings.Repeat(" ", len([]rune(marker)))
		}
		r.children(item)
		r.w.indent = outer
	}
}

func sepLines(l *ast.List) int {
	if l.IsTight {
		return 1
	}
	return 2
}

// code renders a code block as <pre>, with its language when it has one.
func (r *renderer) code(lines *text.Segments, lang string) {
	tags := []*tag{tagPre}
	if lang != "" {
		tags = append(tags, &tag{open: `<code class="language-` + escapeAttr(lang) + `">`, close: "</code>", kind: kindCode})
	}
	done := r.w.openCode(tags...)
	r.lines(lines, false, text.Segment{})
	done()
}

// lines writes raw source lines as text, one per line.
func (r *renderer) lines(lines *text.Segments, closure bool, last text.Segment) {
	var all []string
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		all = append(all, string(seg.Value(r.src)))
	}
	if closure {
		all = append(all, string(last.Value(r.src)))
	}
	body := strings.TrimRight(strings.Join(all, ""), "\n ")
	for i, line := range strings.Split(body, "\n") {
		if i > 0 {
			r.w.newline()
		}
		r.w.text(line)
	}
}

// language keeps a fence's info word if it looks like a language name; any
// other character would have to be escaped into a class Telegram ignores.
func language(info string) string {
	info, _, _ = strings.Cut(strings.TrimSpace(info), " ")
	for _, c := range info {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("+#-_.", c)
		if !ok {
			return ""
		}
	}
	return info
}
