package tgmd

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	east "github.com/yuin/goldmark/extension/ast"
)

// table renders a GFM table as a <pre> block of aligned columns: Telegram has
// no tables, and only a monospace block keeps the columns straight.
func (r *renderer) table(t *east.Table) {
	var rows [][]string
	header := -1
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		if _, ok := row.(*east.TableHeader); ok {
			header = len(rows)
		}
		var cells []string
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, strings.ReplaceAll(plainText(c, r.src), "\n", " "))
		}
		rows = append(rows, cells)
	}
	cols := 0
	for _, row := range rows {
		cols = max(cols, len(row))
	}
	if cols == 0 {
		return
	}
	widths := make([]int, cols)
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	done := r.w.openCode(tagPre)
	defer done()
	for ri, row := range rows {
		if ri > 0 {
			r.w.newline()
		}
		r.w.text(tableLine(row, widths, t.Alignments))
		if ri == header {
			parts := make([]string, cols)
			for i, w := range widths {
				parts[i] = strings.Repeat("─", w)
			}
			r.w.newline()
			r.w.text(strings.Join(parts, "─┼─"))
		}
	}
}

// tableLine pads each cell to its column's width, by its alignment, with no
// trailing spaces.
func tableLine(row []string, widths []int, align []east.Alignment) string {
	var b strings.Builder
	for i, w := range widths {
		c := ""
		if i < len(row) {
			c = row[i]
		}
		if i > 0 {
			b.WriteString(" │ ")
		}
		pad := w - ansi.StringWidth(c)
		left := 0
		if i < len(align) {
			switch align[i] {
			case east.AlignRight:
				left = pad
			case east.AlignCenter:
				left = pad / 2
			}
		}
		b.WriteString(strings.Repeat(" ", left))
		b.WriteString(c)
		b.WriteString(strings.Repeat(" ", pad-left))
	}
	return strings.TrimRight(b.String(), " ")
}
