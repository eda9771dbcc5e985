package mdterm

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	east "github.com/yuin/goldmark/extension/ast"
)

// table renders a GFM table with box-drawing rules. Columns keep their natural
// width when the table fits; otherwise the widest columns shrink and their cells
// wrap, down to a few columns each.
func (r *renderer) table(t *east.Table, width int) []string {
	var rows [][]string
	header := -1
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		if _, ok := row.(*east.TableHeader); ok {
			header = len(rows)
		}
		var cells []string
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			st := plain
			if header == len(rows) {
				st.bold = true
			}
			cells = append(cells, r.inline(c, st))
		}
		rows = append(rows, cells)
	}
	cols := 0
	for _, row := range rows {
		cols = max(cols, len(row))
	}
	if cols == 0 {
		return nil
	}
	widths := make([]int, cols)
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	shrink(widths, width-3*cols-1)
	rule := func(l, m, rgt string) string {
		parts := make([]string, cols)
		for i, w := range widths {
			parts[i] = strings.Repeat("─", w+2)
		}
		return fg(colRule).apply(l+strings.Join(parts, m)+rgt, r.o.Color)
	}
	bar := fg(colRule).apply("│", r.o.Color)
	out := []string{rule("┌", "┬", "┐")}
	for ri, row := range rows {
		cellLines := make([][]string, cols)
		height := 1
		for i := range cols {
			c := ""
			if i < len(row) {
				c = row[i]
			}
			cellLines[i] = wrap(c, max(widths[i], 1))
			height = max(height, len(cellLines[i]))
		}
		for h := range height {
			var b strings.Builder
			b.WriteString(bar)
			for i := range cols {
				s := ""
				if h < len(cellLines[i]) {
					s = cellLines[i][h]
				}
				b.WriteString(" " + s + strings.Repeat(" ", max(widths[i]-ansi.StringWidth(s), 0)) + " " + bar)
			}
			out = append(out, b.String())
		}
		if ri == header {
			out = append(out, rule("├", "┼", "┤"))
		}
	}
	return append(out, rule("└", "┴", "┘"))
}

// shrink narrows the widest columns, one column at a time, until they fit in room
// or every column is down to minCol.
func shrink(widths []int, room int) {
	const minCol = 4
	total := 0
	for _, w := range widths {
		total += w
	}
	for total > room {
		widest := 0
		for i, w := range widths {
			if w > widths[widest] {
				widest = i
			}
		}
		if widths[widest] <= minCol {
			return
		}
		widths[widest]--
		total--
	}
}
