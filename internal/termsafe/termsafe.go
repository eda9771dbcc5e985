// Package termsafe makes text from a model, a tool or a saved session safe to print
// on a terminal: no escape sequence or control character reaches it.
package termsafe

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Printable makes model or tool text safe for a terminal: escape
// sequences (OSC 52 writes the clipboard, OSC 8 hides a link's target, CSI moves
// the cursor or clears the screen) and other control characters but newline and
// tab are removed. A hostile model's answer, printed as is, could put a command in
// the user's clipboard. JSON output escapes them already.
func Printable(s string) string {
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
