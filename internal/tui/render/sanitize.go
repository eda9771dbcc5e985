// Package render turns the agent's text into terminal lines: Markdown (through
// mdterm), unified diffs in colour, the UI's theme, and model output made safe
// to print.
package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// tabWidth is how many spaces a tab becomes: terminals disagree on tab stops and a
// tab breaks width arithmetic, so none reaches the screen. Judgement: 4 reads as
// code indentation without eating narrow screens.
const tabWidth = 4

// Sanitize makes text from the model or a tool safe to print: escape sequences
// (colour, cursor moves, OSC titles and hyperlinks, device queries) are removed, as
// are other control characters but newline; carriage returns and tabs are turned
// into what a reader would see. A model answer can then never move the cursor,
// retitle the window or write to the clipboard.
func Sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	s = ansi.Strip(s)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(strings.Repeat(" ", tabWidth))
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			// C0 and C1 controls: a lone CR would overwrite the line, BEL rings, and
			// an 8-bit CSI (U+009B) starts an escape on some terminals.
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isPlain reports whether s has no control character but newline, the common case
// worth not copying.
func isPlain(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return false
		}
	}
	return true
}

// TrimRightStyled removes the trailing blanks of a styled line, and the styles that
// only coloured those blanks: Glamour pads every line to the wrap width, which
// doubles what is written to the terminal and breaks copy-paste.
func TrimRightStyled(line string) string {
	styled := false
	for {
		switch {
		case strings.HasSuffix(line, " "):
			line = line[:len(line)-1]
		case strings.HasSuffix(line, "m") && sgrStart(line) >= 0:
			line = line[:sgrStart(line)]
			styled = true
		default:
			if styled && strings.Contains(line, "\x1b[") {
				line += "\x1b[m"
			}
			return line
		}
	}
}

// sgrStart returns where the SGR sequence ending line starts, or -1.
func sgrStart(line string) int {
	i := strings.LastIndex(line, "\x1b[")
	if i < 0 {
		return -1
	}
	for _, c := range line[i+2 : len(line)-1] {
		if (c < '0' || c > '9') && c != ';' && c != ':' {
			return -1
		}
	}
	return i
}
