package render

import "github.com/charmbracelet/x/ansi"

// wrapLine wraps one line at word boundaries, cutting words longer than width.
func wrapLine(l string, width int) string {
	if ansi.StringWidth(l) <= width {
		return l
	}
	return ansi.Hardwrap(ansi.Wordwrap(l, width, ""), width, true)
}
