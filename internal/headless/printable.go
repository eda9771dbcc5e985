package headless

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// printable makes model or tool text safe for a terminal in text mode: escape
// sequences (OSC 52 writes the clipboard, OSC 8 hides a link's target, CSI moves
// the cursor or clears the screen) and other control characters but newline and
// tab are removed. A hostile model's answer, printed as is, could put a command in
// the user's clipboard. JSON modes escape them already.
func printable(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	s = strings.ReplaceAll(ansi.Strip(s), "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return -1
		}
		return r
	}, s)
}

// isControl reports C0 and C1 control characters other than newline and tab.
func isControl(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0
}
