package tgmd

import (
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, md, want string }{
		{"heading is a bold line", "# Title\n\ntext", "<b>Title</b>\n\ntext"},
		{"emphasis nests", "**bold _it_** ~~gone~~", "<b>bold <i>it</i></b> <s>gone</s>"},
		{"inline code escapes", "`a < b && c`", "<code>a &lt; b &amp;&amp; c</code>"},
		{"code leaves bold", "**see `x` here**", "<b>see </b><code>x</code><b> here</b>"},
		{"fence with language", "```go\nx := 1 < 2\n```", `<pre><code class="language-go">x := 1 &lt; 2</code></pre>`},
		{"fence without language", "```\nplain\n```", "<pre>plain</pre>"},
		{"odd language dropped", "```a\"b\nx\n```", "<pre>x</pre>"},
		{"indented code", "    code\n    more", "<pre>code\nmore</pre>"},
		{"unterminated fence runs to the end", "```py\nprint(1)\n\nstill code", `<pre><code class="language-py">print(1)` + "\n\nstill code</code></pre>"},
		{"https link", "[doc](https://x.org/?a=1&b=\"2\")", `<a href="https://x.org/?a=1&amp;b=&quot;2&quot;">doc</a>`},
		{"tg and mailto links", "[me](tg://user?id=1) [m](mailto:a@b.c)", `<a href="tg://user?id=1">me</a> <a href="mailto:a@b.c">m</a>`},
		{"javascript link is text", "[x](javascript:alert(1))", "x (javascript:alert(1))"},
		{"relative link is text", "[file](./a.go)", "file (./a.go)"},
		{"empty label shows the url", "[](https://x.org)", `<a href="https://x.org">https://x.org</a>`},
		{"code in a link is link text", "[`x`](https://x.org)", `<a href="https://x.org">x</a>`},
		{"autolink", "<https://x.org> <a@b.c>", `<a href="https://x.org">https://x.org</a> <a href="mailto:a@b.c">a@b.c</a>`},
		{"image becomes a link", "![a cat](https://x.org/c.png)", `<a href="https://x.org/c.png">a cat</a>`},
		{"raw inline html is text", "say <b>hi</b> &amp; <script>", "say &lt;b&gt;hi&lt;/b&gt; &amp; &lt;script&gt;"},
		{"raw html block is text", "<div>\n<b>x</b>\n</div>", "&lt;div&gt;\n&lt;b&gt;x&lt;/b&gt;\n&lt;/div&gt;"},
		{"entities decode then escape once", "&lt;b&gt; &copy; &#65; \\*", "&lt;b&gt; © A *"},
		{"placeholder lookalikes are text", "CB0 CB12 \x00 \ue000\ue001", "CB0 CB12  \ue000\ue001"},
		{"ansi and C0 stripped", "\x1b[31mred\x1b[0m\x07 \x01ok\tT", "red ok\tT"},
		{"invalid UTF-8 and C1 controls", "a\xffb\xc2\x9bc", "a\ufffdbc"},
		{"CRLF", "a\r\nb\rc", "a\nb\nc"},
		{"soft and hard breaks kept", "one\ntwo  \nthree\\\nfour", "one\ntwo\nthree\nfour"},
		{"bullets nest", "- a\n- b\n  - c\n    d\n- e", "• a\n• b\n  • c\n    d\n• e"},
		{"deep nesting indents at most maxIndent", strings.Repeat("- ", 12) + "x\n" + strings.Repeat("  ", 11) + "  y",
			strings.Repeat("• ", 12) + "x\n" + strings.Repeat(" ", maxIndent) + "y"},
		{"ordered list keeps start", "3. x\n4. y", "3. x\n4. y"},
		{"loose list", "- a\n\n- b", "• a\n\n• b"},
		{"task list", "- [x] done\n- [ ] todo", "• ☑ done\n• ☐ todo"},
		{"quote", "> a\n> b\n>\n> c", "<blockquote>a\nb\n\nc</blockquote>"},
		{"nested quote flattened", "> a\n>> b", "<blockquote>a\n\nb</blockquote>"},
		{"code in quote", "> ```\n> x\n> ```", "<blockquote><pre>x</pre></blockquote>"},
		{"thematic break", "a\n\n---\n\nb", "a\n\n" + rule + "\n\nb"},
		{"table aligned in pre", "| a | bb |\n|:-:|--:|\n| xyz | 1 |", "<pre> a  │ bb\n────┼───\nxyz │  1</pre>"},
		{"unbalanced bold stays text", "**x", "**x"},
		{"unfinished link stays text", "[a](", "[a]("},
		{"empty answer", "", ""},
		{"whitespace answer", " \n\n \t\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := Render(c.md)
			if got != c.want {
				t.Errorf("Render(%q)\n got %q\nwant %q", c.md, got, c.want)
			}
			if _, err := visibleText(got); err != nil {
				t.Errorf("Render(%q) is not valid Telegram HTML: %v", c.md, err)
			}
		})
	}
}

func TestLongQuoteIsExpandable(t *testing.T) {
	t.Parallel()
	short := Render("> one line")
	long := Render("> " + strings.Repeat("line\n> ", expandableLines+1))
	if !strings.HasPrefix(short, "<blockquote>") {
		t.Errorf("short quote: %q", short)
	}
	if !strings.HasPrefix(long, "<blockquote expandable>") || !strings.HasSuffix(long, "</blockquote>") {
		t.Errorf("long quote not expandable: %.60q", long)
	}
}
