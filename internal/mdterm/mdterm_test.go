package mdterm

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

const sample = "# Title\n\nSome **bold** and *it* with `code` and a [link](https://x.org/a).\n\n" +
	"- one\n- two with a long line that should wrap around the width of the terminal nicely\n  - nested\n\n" +
	"1. first\n2. second\n\n> quoted text that is long enough to be wrapped over two lines at least\n\n" +
	"```go\nfunc main() {\n\t// hi\n\tx := \"s\" + 42\n}\n```\n\n| a | b |\n|---|---|\n| 1 | two |\n\n" +
	"```diff\n-old\n+new\n```\n\n---\n\n- [x] done\n- [ ] todo\n"

func plainLines(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(ansi.Strip(l))
		b.WriteString("\n")
	}
	return b.String()
}

func TestEveryLineFitsAndClosesItsStyles(t *testing.T) {
	for _, width := range []int{24, 40, 100} {
		for _, l := range Render(sample, width, Options{Color: true}) {
			if w := ansi.StringWidth(l); w > width {
				t.Errorf("width %d: line %q is %d wide", width, ansi.Strip(l), w)
			}
			if open := openStyle(l); open != "" {
				t.Errorf("width %d: line %q leaves %q open", width, l, open)
			}
		}
	}
}

func TestNoTextIsLost(t *testing.T) {
	out := plainLines(Render(sample, 40, Options{Color: true}))
	flat := strings.Join(strings.Fields(out), " ")
	for _, w := range []string{"# Title", "bold", "it", "code", "link (https://x.org/a)", "• one", "• nested", "1. first",
		"2. second", "│ quoted", "func main() {", "// hi", `x := "s" + 42`, "-old", "+new", "☑ done", "☐ todo", "two"} {
		if !strings.Contains(flat, w) {
			t.Errorf("rendered text lacks %q:\n%s", w, out)
		}
	}
}

func TestCodeIsHighlightedByItsGrammar(t *testing.T) {
	lines := Render("```go\nfunc f() int {\n\treturn 42 // answer\n}\n```", 80, Options{Color: true})
	joined := strings.Join(lines, "\n")
	for _, want := range []string{
		style{fg: colKeyword, bold: true}.apply("func", true),
		style{fg: colKeyword, bold: true}.apply("return", true),
		fg(colType).apply("int", true),
		fg(colNumber).apply("42", true),
		style{fg: colComment, italic: true}.apply("// answer", true),
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %q in %q", want, joined)
		}
	}
	if strings.Contains(joined, "\t") {
		t.Error("a tab reached the terminal")
	}
	// A language with no grammar stays plain text, indented.
	if got := Render("```text\nfunc x\n```", 80, Options{Color: true}); len(got) != 1 || got[0] != "  func x" {
		t.Errorf("unknown language: %q", got)
	}
}

func TestNoColourKeepsEmphasisOnly(t *testing.T) {
	out := strings.Join(Render(sample, 60, Options{Color: false}), "\n")
	if strings.Contains(out, "38;5;") {
		t.Errorf("colour without Color: %q", out)
	}
	if !strings.Contains(out, "\x1b[1mbold\x1b[0m") || !strings.Contains(out, "\x1b[3mit\x1b[0m") {
		t.Errorf("bold or italics lost without colour: %q", out)
	}
}

func TestTableRowsAlign(t *testing.T) {
	lines := Render("| name | description |\n|---|---|\n| a | a long description that cannot fit in the narrow width |\n| bb | short |", 30, Options{Color: true})
	width := ansi.StringWidth(lines[0])
	for _, l := range lines {
		if ansi.StringWidth(l) != width {
			t.Errorf("row %q is %d wide, the table %d", ansi.Strip(l), ansi.StringWidth(l), width)
		}
	}
	if width > 30 {
		t.Errorf("table %d wide in 30 columns", width)
	}
	if !strings.Contains(plainLines(lines), "narrow") {
		t.Errorf("a wrapped cell lost words:\n%s", plainLines(lines))
	}
}

func TestHeadingAndLinkStyles(t *testing.T) {
	out := strings.Join(Render("## Setup\n\nSee [the docs](https://example.org/docs) or https://example.org.", 80, Options{Color: true}), "\n")
	if !strings.Contains(out, style{bold: true, fg: colHeading}.apply("Setup", true)) {
		t.Errorf("heading not styled: %q", out)
	}
	if !strings.Contains(out, style{fg: colLink, underline: true}.apply("the docs", true)) || !strings.Contains(ansi.Strip(out), "(https://example.org/docs)") {
		t.Errorf("link not shown with its destination: %q", out)
	}
}
