package mdterm

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// inline renders the inline children of n in style st; every run carries its whole
// style and ends with a reset, so nesting needs no stack in the terminal.
func (r *renderer) inline(n ast.Node, st style) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inlineNode(&b, c, st)
	}
	return b.String()
}

func (r *renderer) inlineNode(b *strings.Builder, n ast.Node, st style) {
	switch n := n.(type) {
	case *ast.Text:
		b.WriteString(st.apply(string(n.Value(r.src)), r.o.Color))
		switch {
		case n.HardLineBreak():
			b.WriteString("\n")
		case n.SoftLineBreak():
			b.WriteString(" ")
		}
	case *ast.String:
		b.WriteString(st.apply(string(n.Value), r.o.Color))
	case *ast.CodeSpan:
		var code strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				code.Write(t.Value(r.src))
			}
		}
		cs := st
		cs.fg = colCode
		b.WriteString(cs.apply(code.String(), r.o.Color))
	case *ast.Emphasis:
		es := st
		if n.Level >= 2 {
			es.bold = true
		} else {
			es.italic = true
		}
		b.WriteString(r.inline(n, es))
	case *east.Strikethrough:
		ss := st
		ss.strike = true
		b.WriteString(r.inline(n, ss))
	case *ast.Link:
		ls := st
		ls.fg, ls.underline = colLink, true
		label := r.inline(n, ls)
		b.WriteString(label)
		if dest := string(n.Destination); dest != "" && !sameText(r.plainText(n), dest) {
			b.WriteString(style{fg: colQuote, dim: true}.apply(" ("+dest+")", r.o.Color))
		}
	case *ast.AutoLink:
		ls := st
		ls.fg, ls.underline = colLink, true
		b.WriteString(ls.apply(string(n.URL(r.src)), r.o.Color))
	case *ast.Image:
		alt := r.plainText(n)
		b.WriteString(style{fg: colQuote, dim: true}.apply("[image: "+alt+"] ("+string(n.Destination)+")", r.o.Color))
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			b.WriteString(st.apply(string(seg.Value(r.src)), r.o.Color))
		}
	case *east.TaskCheckBox:
		box := "☐ "
		if n.IsChecked {
			box = "☑ "
		}
		b.WriteString(st.apply(box, r.o.Color))
	default:
		b.WriteString(r.inline(n, st))
	}
}

// plainText is n's text without any styling, for alt texts and link comparisons.
func (r *renderer) plainText(n ast.Node) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Value(r.src))
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// sameText reports whether a link's label already shows its destination.
func sameText(label, dest string) bool {
	trim := func(s string) string {
		s = strings.TrimPrefix(strings.TrimPrefix(s, "https://"), "http://")
		return strings.TrimSuffix(strings.TrimPrefix(s, "mailto:"), "/")
	}
	return trim(label) == trim(dest)
}
