package tool

import (
	"fmt"
	"unicode/utf8"
)

// Cap shortens s to about max bytes, keeping the head and the tail (where errors and
// summaries usually are) with a marker in the middle that says how much was cut. It
// never splits a UTF-8 sequence. It reports whether it cut anything.
func Cap(s string, max int) (string, bool) {
	if max <= 0 || len(s) <= max {
		return s, false
	}
	headEnd := max * 2 / 3
	for headEnd > 0 && !utf8.RuneStart(s[headEnd]) {
		headEnd--
	}
	tailStart := len(s) - (max - max*2/3)
	for tailStart < len(s) && !utf8.RuneStart(s[tailStart]) {
		tailStart++
	}
	return fmt.Sprintf("%s\n[... %d bytes truncated ...]\n%s", s[:headEnd], tailStart-headEnd, s[tailStart:]), true
}
