package mdext

import (
	gast "github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// tableTransformer turns a paragraph holding a header row, a delimiter row
// and body rows into a table (GFM "Tables"): the lines before the header stay
// a paragraph; every line after the delimiter row is a body row.
type tableTransformer struct{}

func (tableTransformer) Transform(p *gast.Paragraph, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	lines := p.Lines()
	for i := 1; i < lines.Len(); i++ {
		seg := lines.At(i)
		aligns := delimiterRow(seg.Value(src))
		if aligns == nil {
			continue
		}
		// A header with more cells than the delimiter row is no table; one
		// with fewer is padded, as goldmark does (GFM refuses it too).
		header := cells(src, lines.At(i-1))
		if len(header) > len(aligns) {
			return
		}
		t := east.NewTable()
		t.Alignments = aligns
		t.SetPos(p.Pos())
		t.AppendChild(t, east.NewTableHeader(row(header, aligns)))
		for j := i + 1; j < lines.Len(); j++ {
			t.AppendChild(t, row(cells(src, lines.At(j)), aligns))
		}
		parent := p.Parent()
		parent.InsertAfter(parent, p, t)
		if i == 1 {
			parent.RemoveChild(parent, p)
			return
		}
		lines.SetSliced(0, i-1)
		last := lines.At(i - 2)
		lines.Set(i-2, last.TrimRightSpace(src)) // the paragraph no longer ends a line
		return
	}
}

// row builds a table row of exactly len(aligns) cells: missing cells are
// empty and unaligned (as goldmark's), extra ones dropped (in a header, a
// mismatch has already refused the table).
func row(cs []text.Segment, aligns []east.Alignment) *east.TableRow {
	r := east.NewTableRow(aligns)
	for i, a := range aligns {
		c := east.NewTableCell()
		if i < len(cs) {
			c.Alignment = a
			c.Lines().Append(cs[i])
		}
		r.AppendChild(r, c)
	}
	return r
}

// delimiterRow reads a row like "| :--- | ---: | :-: |" into alignments, or
// returns nil. A row of dashes alone is a setext underline or a rule, not a
// one-column table.
func delimiterRow(line []byte) []east.Alignment {
	if indentWidth(line) > 3 {
		return nil
	}
	line = trimSpace(line)
	if len(line) == 0 {
		return nil
	}
	piped := line[0] == '|' || line[len(line)-1] == '|'
	if line[0] == '|' {
		line = line[1:]
	}
	if len(line) > 0 && line[len(line)-1] == '|' {
		line = line[:len(line)-1]
	}
	var aligns []east.Alignment
	colon := false
	for _, cell := range splitPipes(line) {
		cell = trimSpace(cell)
		left, right := len(cell) > 0 && cell[0] == ':', len(cell) > 1 && cell[len(cell)-1] == ':'
		dashes := cell
		if left {
			dashes = dashes[1:]
		}
		if right {
			dashes = dashes[:len(dashes)-1]
		}
		if len(dashes) == 0 {
			return nil
		}
		for _, b := range dashes {
			if b != '-' {
				return nil
			}
		}
		colon = colon || left || right
		switch {
		case left && right:
			aligns = append(aligns, east.AlignCenter)
		case left:
			aligns = append(aligns, east.AlignLeft)
		case right:
			aligns = append(aligns, east.AlignRight)
		default:
			aligns = append(aligns, east.AlignNone)
		}
	}
	if !piped && !colon && len(aligns) < 2 {
		return nil
	}
	return aligns
}

// cells splits a row into the source segments of its cells, trimmed, at
// every pipe not escaped by a backslash.
func cells(src []byte, line text.Segment) []text.Segment {
	line = line.TrimLeftSpace(src)
	line = line.TrimRightSpace(src)
	start, stop := line.Start, line.Stop
	if start < stop && src[start] == '|' {
		start++
	}
	if start < stop && src[stop-1] == '|' && (stop-2 < start || src[stop-2] != '\\') {
		stop--
	}
	var out []text.Segment
	from := start
	for i := start; i <= stop; i++ {
		switch {
		case i == stop || src[i] == '|':
			c := text.NewSegment(from, i)
			c = c.TrimLeftSpace(src)
			out = append(out, c.TrimRightSpace(src))
			from = i + 1
		case src[i] == '\\' && i+1 < stop:
			i++ // an escaped character, perhaps a pipe
		}
	}
	return out
}

// splitPipes splits a delimiter row on its pipes.
func splitPipes(line []byte) [][]byte {
	var out [][]byte
	from := 0
	for i, b := range line {
		if b == '|' {
			out = append(out, line[from:i])
			from = i + 1
		}
	}
	return append(out, line[from:])
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

func indentWidth(b []byte) int {
	n := 0
	for _, c := range b {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n
		}
	}
	return n
}
