package mdext

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// ours renders with this package's parser and goldmark's HTML renderers for
// the extension nodes; peer is goldmark's own extensions, the reference.
var (
	ours = goldmark.New(goldmark.WithExtensions(GFM), goldmark.WithRendererOptions(renderer.WithNodeRenderers(
		util.Prioritized(extension.NewTableHTMLRenderer(), 500),
		util.Prioritized(extension.NewStrikethroughHTMLRenderer(), 500),
		util.Prioritized(extension.NewTaskCheckBoxHTMLRenderer(), 500))))
	peer = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))
)

func html(t *testing.T, md goldmark.Markdown, src string) string {
	t.Helper()
	var b bytes.Buffer
	if err := md.Convert([]byte(src), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var cases = []string{
	"| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 |\n| 4 | 5 | 6 |",
	"a | b\n--- | ---:\n1 | 2",
	"Before the table\n| a |\n| :-- |\n| x |",
	"| `x \\| y` | b \\| c |\n|---|---|\n| `\\|` | d |",
	"| a | b |\n|---|---|\n",
	"- | a | b |\n  |---|---|\n  | 1 | 2 |",
	"> | a | b |\n> |---|---|\n> | 1 | 2 |",
	"| **bold** | [link](https://go.dev) |\n|-|-|\n| ~~gone~~ | `code` |",
	"a\n---",
	"| a |\n---",
	"|a|\n|-|\n|b|\nafter",
	":--\nx",
	"~~struck~~ and ~one~ and ~~~three~~~ and ~~unclosed",
	"a~~b~~c",
	"- [ ] todo\n- [x] done\n- [X] done too\n- [y] not a box\n- text [ ] later",
	"1. [x] numbered\n\n   - [ ] nested",
	"[ ] not in a list",
	"- [ ]",
	"| a | b |\n| --- | --- |\n| `|` | x |",
	"| a | b | c |\n|---|---|\n| 1 |",
	"| a |\n|---|---|\n| 1 |",
}

func TestSameHTMLAsGoldmarkExtensions(t *testing.T) {
	for _, src := range cases {
		if got, want := html(t, ours, src), html(t, peer, src); got != want {
			t.Errorf("markdown %q:\nours %q\npeer %q", src, got, want)
		}
	}
}

// pipeEnd finds a row that ends in an escaped pipe.
var pipeEnd = regexp.MustCompile(`(?m)\\\|[ \t]*$`)

// TestRandomAnswersMatchGoldmark compares on random mixtures of the pieces
// tables, strikethrough and task lists are made of.
func TestRandomAnswersMatchGoldmark(t *testing.T) {
	pieces := []string{"|", " | ", "\\|", "---", ":-", "-:", ":-:", "\n", "\n\n", "- ", "  ", "> ", "1. ",
		"[ ] ", "[x] ", "[", "]", "~", "~~", "`", "a", "word", "**", "_", "\t", "\\", "x|y", "| a | b |\n|---|---|\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		src := b.String()
		if pipeEnd.MatchString(src) || strings.Contains(src, `\\|`) {
			continue // an escaped pipe ending a row, an escaped backslash before a pipe: see below
		}
		if got, want := html(t, ours, src), html(t, peer, src); got != want {
			t.Fatalf("case %d, markdown %q:\nours %q\npeer %q", i, src, got, want)
		}
	}
}

// TestFollowsGFMWhereGoldmarkDoesNot: goldmark's extensions accept a check box
// with no space after it, drop an escaped pipe that ends a row (leaving its
// backslash), and read an escaped backslash before a pipe as an escaped pipe.
// The GFM spec and cmark-gfm refuse the box, keep the pipe, and read the
// escaped backslash, then a cell's end; so do we.
func TestFollowsGFMWhereGoldmarkDoesNot(t *testing.T) {
	for src, want := range map[string]string{
		"- [ ]not a box":            "<ul>\n<li>[ ]not a box</li>\n</ul>\n",
		"| a | b \\|\n|-|-|":        "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b |</th>\n</tr>\n</thead>\n</table>\n",
		`\\| a | b |` + "\n|-|-|-|": "<table>\n<thead>\n<tr>\n<th>\\</th>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n</table>\n",
	} {
		if got := html(t, ours, src); got != want {
			t.Errorf("markdown %q:\ngot  %q\nwant %q", src, got, want)
		}
		if peer := html(t, peer, src); peer == want {
			t.Errorf("markdown %q: goldmark now agrees; move the case to the shared ones", src)
		}
	}
}
