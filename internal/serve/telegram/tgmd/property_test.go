package tgmd

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// fragments are the pieces random answers are made of: every construct the
// renderer knows, half-finished ones, and text that looks like markup.
var fragments = []string{
	"# ", "## ", "\n", "\n\n", " ", "  \n", "\\\n", "- ", "  - ", "1. ", "> ", ">> ", "```", "```go\n", "~~~\n",
	"    ", "**", "*", "_", "__", "~~", "`", "[", "](", ")", "](https://x.org/a?b=1&c=2)", "](javascript:x)",
	"![", "<https://go.dev>", "<a@b.c>", "| a | b |\n|---|--:|\n", "| 1 | 2 |\n", "---\n", "- [ ] ", "- [x] ",
	"word", "longerword", "Ünïcödé", "日本語", "😀", "👍🏽", "\u200d", "\ue000", "CB0", "CB12", "\x00", "\x1b[31m",
	"\x07", "\r\n", "\t", "<b>", "</b>", "<pre>", "&lt;", "&amp;", "&", "<", ">", "\"", "&#128512;", "&bogus;", "\xff", "\xc2\x9b",
	strings.Repeat("z", 130),
}

func randomMarkdown(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(300) {
		b.WriteString(fragments[r.IntN(len(fragments))])
	}
	return b.String()
}

func TestSplitRandomMarkdown(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 7))
	for i := range 3000 {
		md := randomMarkdown(r)
		limit := 8 + r.IntN(400)
		if err := checkMessages(md, limit, Split(md, limit)); err != nil {
			t.Fatalf("case %d, limit %d, markdown %q:\n%v", i, limit, md, err)
		}
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{"**x", "```go\nx", "[a](", "<b>&lt;CB0\ue000", "\x1b[1m", "> > - `x`", "😀😀😀"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, md string, limit int) {
		limit = 4 + int(uint(limit)%500)
		if err := checkMessages(md, limit, Split(md, limit)); err != nil {
			t.Fatalf("limit %d, markdown %q:\n%v", limit, md, err)
		}
	})
}
