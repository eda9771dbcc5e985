package tgmd

import (
	"strings"
	"testing"
)

// FuzzSplitAtTelegramLimit cuts any answer at Telegram's own limit, the one the
// bot uses: repeating the fuzzed text makes answers long enough to need cuts.
// Every message must be HTML in Telegram's subset, well nested, within 4096
// UTF-16 units, and together they must carry the whole answer.
func FuzzSplitAtTelegramLimit(f *testing.F) {
	for _, s := range []string{
		"# Title\n\nSome **bold** and `code` and [a link](https://go.dev).\n\n",
		"```go\nfunc main() {}\n```\n",
		"> quoted *text* over\n> two lines\n\n",
		"| a | b |\n|---|---|\n| 1 | 2 |\n",
		"- one\n  - two\n    - three\n",
		"😀👍🏽 &lt;<b>&amp; \x00\x1b[31m\xff",
		"**unclosed `code [link](",
	} {
		f.Add(s, uint8(200))
	}
	f.Fuzz(func(t *testing.T, piece string, times uint8) {
		md := strings.Repeat(piece, 1+int(times))
		if err := checkMessages(md, Limit, Split(md, 0)); err != nil {
			t.Fatalf("%d times %q:\n%v", 1+int(times), piece, err)
		}
	})
}
