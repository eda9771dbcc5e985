package render

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Diff renders a unified diff in colour: additions, deletions, hunk headers and
// file headers each in their style, every line cut to width. maxLines > 0 keeps
// the first maxLines lines and says how many were left out.
func Diff(t *Theme, unified string, width, maxLines int) []string {
	lines := strings.Split(strings.TrimRight(Sanitize(unified), "\n"), "\n")
	hidden := 0
	if maxLines > 0 && len(lines) > maxLines {
		hidden = len(lines) - maxLines
		lines = lines[:maxLines]
	}
	out := make([]string, 0, len(lines)+1)
	for _, l := range lines {
		l = ansi.Truncate(l, width, "…")
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			out = append(out, t.DiffFile.Render(l))
		case strings.HasPrefix(l, "@@"):
			out = append(out, t.DiffHunk.Render(l))
		case strings.HasPrefix(l, "+"):
			out = append(out, t.DiffAdd.Render(l))
		case strings.HasPrefix(l, "-"):
			out = append(out, t.DiffDel.Render(l))
		default:
			out = append(out, l)
		}
	}
	if hidden > 0 {
		out = append(out, t.Dim.Render(ansi.Truncate("… "+strconv.Itoa(hidden)+" more lines (ctrl+o shows all)", width, "…")))
	}
	return out
}
