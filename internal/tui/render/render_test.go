package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestSanitizeNeutralisesEscapes(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain text\nline 2", "plain text\nline 2"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"\x1b]0;pwned title\x07after", "after"},
		{"\x1b]52;c;ZXZpbA==\x07copy", "copy"},               // OSC 52 would write the clipboard
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"}, // hyperlinks
		{"a\x1b[2J\x1b[Hb", "ab"},                            // clear screen, cursor home
		{"bell\x07", "bell"},
		{"progress 10%\rprogress 99%", "progress 10%progress 99%"},
		{"crlf\r\nline", "crlf\nline"},
		{"c1 \u009b31mx", "c1 31mx"}, // 8-bit CSI
		{"\ttab", "    tab"},
		{"héllo 世界 🙂", "héllo 世界 🙂"},
		{"del\x7f", "del"},
	}
	for _, tt := range tests {
		if got := Sanitize(tt.in); got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTrimRightStyled(t *testing.T) {
	t.Parallel()
	in := "\x1b[38;5;252mtext\x1b[m\x1b[38;5;252m \x1b[m\x1b[38;5;252m \x1b[m  "
	got := TrimRightStyled(in)
	if ansi.Strip(got) != "text" {
		t.Errorf("visible text %q, want %q", ansi.Strip(got), "text")
	}
	if !strings.HasSuffix(got, "\x1b[m") {
		t.Errorf("styles are not reset at the end: %q", got)
	}
	if got := TrimRightStyled("plain   "); got != "plain" {
		t.Errorf("plain line: %q", got)
	}
}

func TestSplitBlocks(t *testing.T) {
	t.Parallel()
	md := "# Title\n\npara one\nstill one\n\n```go\nfunc a() {\n\n\treturn\n}\n```\n\n- item\n\n  more of item\n\nlast"
	got := SplitBlocks(md)
	want := []string{"# Title", "para one\nstill one", "```go\nfunc a() {\n\n\treturn\n}\n```", "- item\n\n  more of item", "last"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("SplitBlocks:\n%q\nwant\n%q", got, want)
	}
}

// Streaming relies on this: once a block is complete, more text never changes it.
func TestSplitBlocksStableWhileStreaming(t *testing.T) {
	t.Parallel()
	md := "intro\n\n```\ncode\n\nmore code\n```\n\n1. one\n2. two\n\nend of it\n"
	final := SplitBlocks(md)
	for i := 1; i <= len(md); i++ {
		part := SplitBlocks(md[:i])
		for j := 0; j < len(part)-1; j++ {
			if part[j] != final[j] {
				t.Fatalf("after %d bytes block %d is %q, finally %q", i, j, part[j], final[j])
			}
		}
	}
}

func TestMarkdownColourModes(t *testing.T) {
	t.Parallel()
	md := "# Title\n\nSome `code` and **bold**.\n\n```go\nfunc main() {}\n```\n"
	colour := strings.Join(NewMarkdown(true).Render(md, 60), "\n")
	if !strings.Contains(colour, "\x1b[38;5;") {
		t.Errorf("colour mode has no colour (code highlighting missing):\n%q", colour)
	}
	plain := strings.Join(NewMarkdown(false).Render(md, 60), "\n")
	if strings.Contains(plain, "\x1b[38;") || strings.Contains(plain, "\x1b[48;") {
		t.Errorf("NO_COLOR mode emits colours:\n%q", plain)
	}
	if strings.Contains(plain, "**bold**") || !strings.Contains(plain, "\x1b[1m") {
		t.Errorf("NO_COLOR mode should keep emphasis as bold, not raw markers:\n%q", plain)
	}
	if !strings.Contains(ansi.Strip(plain), "func main() {}") || !strings.Contains(plain, "Title") {
		t.Errorf("plain render lost text:\n%s", plain)
	}
	for _, l := range strings.Split(colour, "\n") {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("line wider than 60: %d %q", w, ansi.Strip(l))
		}
	}
}

func TestMarkdownStripsModelEscapes(t *testing.T) {
	t.Parallel()
	out := strings.Join(NewMarkdown(true).Render("hi \x1b]0;title\x07there \x1b[2Jnow", 40), "\n")
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\x07"} {
		if strings.Contains(out, bad) {
			t.Errorf("rendered output keeps %q: %q", bad, out)
		}
	}
	if !strings.Contains(ansi.Strip(out), "hi there now") {
		t.Errorf("text lost: %q", ansi.Strip(out))
	}
}

func TestDiffColoursAndLimit(t *testing.T) {
	t.Parallel()
	d := "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n"
	th := NewTheme(true)
	lines := Diff(th, d, 40, 0)
	if len(lines) != 6 {
		t.Fatalf("%d lines, want 6: %q", len(lines), lines)
	}
	if lines[4] == "-old" || !strings.Contains(lines[4], "-old") || lines[5] == "+new" {
		t.Errorf("removed/added lines are not coloured: %q %q", lines[4], lines[5])
	}
	if lines[3] != " keep" {
		t.Errorf("context line styled: %q", lines[3])
	}
	short := Diff(th, d, 40, 3)
	if len(short) != 4 || !strings.Contains(ansi.Strip(short[3]), "3 more lines") {
		t.Errorf("limited diff: %q", short)
	}
	noColour := Diff(NewTheme(false), d, 40, 0)
	for _, l := range noColour {
		if strings.Contains(l, "\x1b[3") {
			t.Errorf("NO_COLOR diff has colour: %q", l)
		}
	}
}

func TestWrapCutsLongWords(t *testing.T) {
	t.Parallel()
	for _, l := range Wrap("short words here and averyveryverylongwordthatexceeds", 10) {
		if ansi.StringWidth(l) > 10 {
			t.Errorf("line %q wider than 10", l)
		}
	}
}
