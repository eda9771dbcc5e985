package tgmd

import (
	"strings"
	"testing"
)

func TestSplitCutsByStructure(t *testing.T) {
	t.Parallel()
	para := func(word string, n int) string { return strings.TrimSpace(strings.Repeat(word+" ", n)) }
	goCode := "```go\n" + strings.Repeat("fmt.Println(\"a < b\")\n", 40) + "```"
	cases := []struct {
		name  string
		md    string
		limit int
		check func(t *testing.T, msgs []Message)
	}{
		{"fits in one", "**hi** there", 100, wantPlains("hi there")},
		{"between blocks first", para("aaaa", 12) + "\n\n" + para("bbbb", 12), 100,
			wantPlains(para("aaaa", 12), para("bbbb", 12))},
		{"heading stays with its text", para("aaaa", 10) + "\n\n# Next\n\n" + para("bbbb", 12), 110,
			wantPlains(para("aaaa", 10), "Next\n\n"+para("bbbb", 12))},
		{"between lines before words", "one two three\nfour five six seven", 25,
			wantPlains("one two three", "four five six seven")},
		{"between words", para("word", 30), 50, func(t *testing.T, msgs []Message) {
			for _, m := range msgs {
				for _, w := range strings.Fields(m.Plain) {
					if w != "word" {
						t.Errorf("word torn: %q in %q", w, m.Plain)
					}
				}
			}
		}},
		{"hard cut in a long word", strings.Repeat("x", 250), 100,
			wantPlains(strings.Repeat("x", 100), strings.Repeat("x", 100), strings.Repeat("x", 50))},
		{"code block closed and reopened", goCode, 200, func(t *testing.T, msgs []Message) {
			if len(msgs) < 3 {
				t.Fatalf("want several messages, got %d", len(msgs))
			}
			for i, m := range msgs {
				if !strings.HasPrefix(m.HTML, `<pre><code class="language-go">`) || !strings.HasSuffix(m.HTML, "</code></pre>") {
					t.Errorf("message %d is not a whole code block: %.50q … %.20q", i, m.HTML, m.HTML[max(0, len(m.HTML)-20):])
				}
			}
		}},
		{"formatting reopened", "**" + para("bold", 30) + "**", 50, func(t *testing.T, msgs []Message) {
			for i, m := range msgs {
				if !strings.HasPrefix(m.HTML, "<b>") || !strings.HasSuffix(m.HTML, "</b>") {
					t.Errorf("message %d: %q", i, m.HTML)
				}
			}
		}},
		{"link reopened", "[" + para("go", 40) + "](https://go.dev)", 50, func(t *testing.T, msgs []Message) {
			for i, m := range msgs {
				if !strings.HasPrefix(m.HTML, `<a href="https://go.dev">`) {
					t.Errorf("message %d: %q", i, m.HTML)
				}
			}
		}},
		{"plain decodes entities", "a & b <c>", 100, func(t *testing.T, msgs []Message) {
			if len(msgs) != 1 || msgs[0].Plain != "a & b <c>" || msgs[0].HTML != "a &amp; b &lt;c&gt;" {
				t.Errorf("got %+v", msgs)
			}
		}},
		{"blank answer gives no message", "\n\n   \n> \n\n```\n```", 100, wantPlains()},
		{"emoji count two units", strings.Repeat("😀", 75), 100, func(t *testing.T, msgs []Message) {
			if len(msgs) != 2 || len([]rune(msgs[0].Plain)) != 50 {
				t.Errorf("want 50 emoji then 25, got %d messages, first %d runes", len(msgs), len([]rune(msgs[0].Plain)))
			}
		}},
		{"composed emoji not torn", strings.Repeat("x", 98) + "👍🏽 tail", 100, func(t *testing.T, msgs []Message) {
			if !strings.HasPrefix(msgs[1].Plain, "👍🏽") {
				t.Errorf("emoji torn: %q | %q", msgs[0].Plain[90:], msgs[1].Plain)
			}
		}},
		{"zero limit means Limit", para("w", 3000), 0, func(t *testing.T, msgs []Message) {
			if len(msgs) != 2 {
				t.Errorf("want 2 messages at %d, got %d", Limit, len(msgs))
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			msgs := Split(c.md, c.limit)
			limit := c.limit
			if limit <= 0 {
				limit = Limit
			}
			if err := checkMessages(c.md, limit, msgs); err != nil {
				t.Fatal(err)
			}
			c.check(t, msgs)
		})
	}
}

func wantPlains(want ...string) func(t *testing.T, msgs []Message) {
	return func(t *testing.T, msgs []Message) {
		t.Helper()
		var got []string
		for _, m := range msgs {
			got = append(got, m.Plain)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("plains\n got %q\nwant %q", got, want)
		}
	}
}

// TestSplitPathological runs the inputs the issue names as bad at Telegram's
// own limit.
func TestSplitPathological(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"unbalanced markdown":   strings.Repeat("**x _y [a]( `z ~~w\n", 600),
		"unterminated fence":    "text\n\n```go\n" + strings.Repeat("line := 1\n", 1500),
		"tag lookalikes":        strings.Repeat("<b>bold</b> &lt; &amp;amp; </pre> <a href=x> ", 400),
		"placeholder lookalike": strings.Repeat("CB0 CB1 \x00 \ue000\U000F0000 ", 800),
		"ansi escapes":          strings.Repeat("\x1b[1;31merror\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x07\x08\n", 500),
		"10000-char word":       strings.Repeat("a", 10000),
		"1 MB code block":       "```go\n" + strings.Repeat("x := \"<&>\" // 😀 a long enough line of code\n", 1<<20/50) + "```",
		"3000 emoji":            strings.Repeat("😀", 3000),
		"deep nesting":          strings.Repeat("> - **_", 200) + "x",
		"huge table":            "| a | b |\n|---|---|\n" + strings.Repeat("| cell & more | <td> |\n", 2000),
	}
	for name, md := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			msgs := Split(md, Limit)
			if len(msgs) == 0 {
				t.Fatal("no message")
			}
			if err := checkMessages(md, Limit, msgs); err != nil {
				t.Fatal(err)
			}
		})
	}
}
