package tgmd

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// blocks are whole Markdown blocks, including those a blank line does not end
// (fences and HTML blocks holding blank lines and first-column letters), the
// lists and quotes such a line does end, and half-finished ones.
var blocks = []string{
	"Plain words and **bold\nacross a line** with `code`.",
	"# Heading", "Setext\n===", "Another\n---",
	"- one\n- two\n\n  still two\n- three",
	"1. step\n   ```bash\n   make\n\n   make test\n   ```\n2. done",
	"1. open fence in a list\n   ```\n   x",
	"```go\nfunc f() {\n\nreturn\n}\n```",
	"```\nunterminated\n\nWords at the start",
	"~~~\n```\n\nNot the end\n~~~",
	"> quoted\n> more\n\n> again",
	"    indented code\n\n    more code",
	"<!--\n\nHidden words\n-->",
	"<pre>\n\nPre words\n</pre>",
	"<div>\n\nDiv words",
	"| a | b |\n|---|---|\n| 1 | 2 |",
	"Text with a [link](https://go.dev) and ~~strike~~.",
	"Émile écrit 😀 en français.",
	"* star list\n\n* loose",
	"- ```\n  in an item\n\n  Words in the fence\n  ```",
	"- ```\n  unterminated in an item",
	"  ```\n indented top fence\n\nWords in it\n  ```",
	"10. ```\n    deep\n\nWords after",
	"<script>\n\nWords in a script\n</script>",
	"<!-- one line -->",
	"Lazy\ncontinuation\n> quote\nlazy line",
	"> ```\n> quoted fence\n```\n\nWords",
	"---",
}

func randomDocument(r *rand.Rand) string {
	var b strings.Builder
	for i := range 5 + r.IntN(60) {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(blocks[r.IntN(len(blocks))])
	}
	return b.String()
}

// TestPiecesRenderAsTheWhole checks that the answer parsed in pieces renders
// exactly as parsed whole: the same text, the same cut points, the same HTML.
func TestPiecesRenderAsTheWhole(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 9))
	split := 0
	for i := range 3000 {
		md := randomDocument(r)
		n := 2 + r.IntN(4)
		if len(cutSource([]byte(clean(md)), n)) > 1 {
			split++
		}
		whole, pieces := buildIn(md, 1, 0), buildIn(md, n, 0)
		if whole.vis != pieces.vis {
			t.Fatalf("case %d in %d pieces: the text differs\nmarkdown %q\nwhole  %q\npieces %q", i, n, md, whole.vis, pieces.vis)
		}
		if w, p := string(whole.html(nil, 0, len(whole.vis))), string(pieces.html(nil, 0, len(pieces.vis))); w != p {
			t.Fatalf("case %d in %d pieces: the HTML differs\nmarkdown %q\nwhole  %q\npieces %q", i, n, md, w, p)
		}
		limit := 20 + r.IntN(300)
		if w, p := whole.cuts(limit), pieces.cuts(limit); !equalChunks(w, p) {
			t.Fatalf("case %d in %d pieces: the cuts differ at limit %d\nmarkdown %q\nwhole  %v\npieces %v", i, n, limit, md, w, p)
		}
	}
	if split < 250 {
		t.Fatalf("only %d of 3000 documents were cut into pieces: the test checks little", split)
	}
}

func equalChunks(a, b []chunk) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSourceWithLinkDefinitionsStaysWhole(t *testing.T) {
	for _, md := range []string{
		"See [the docs][d].\n\nWords\n\n[d]: https://go.dev",
		"Words\n\n> [d]: https://go.dev\n\nMore [x][d]",
		"Words\n\n- [d]: https://go.dev\n\nMore",
	} {
		if p := cutSource([]byte(md+strings.Repeat("\n\nWords", 10)), 4); p != nil {
			t.Errorf("%q was cut into %d pieces", md, len(p))
		}
	}
	if p := cutSource([]byte("x = d[k]: 1\n\nWords\n\nMore words"), 2); len(p) != 2 {
		t.Errorf("code with ]: kept a source whole: %d pieces", len(p))
	}
}

func TestSmallAnswersAreNotCut(t *testing.T) {
	md := strings.Repeat("Words and words.\n\n", 100)
	if s := buildIn(md, 4, parallelMin); len(s.gaps) != 99 {
		t.Fatalf("%d gaps, want 99", len(s.gaps))
	}
	if p := cutSource([]byte(md), 4); len(p) != 4 {
		t.Fatalf("a source of %d bytes gave %d pieces, want 4", len(md), len(p))
	}
}
