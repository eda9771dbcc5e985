package render

import (
	"strings"

	"github.com/etalab-ia/albert-code/internal/mdterm"
)

// Markdown renders Markdown in one colour mode through mdterm, whose code
// highlighting uses the tree-sitter grammars already linked (Glamour's chroma cost
// every command some 20 ms of package init).
type Markdown struct {
	color bool
}

// NewMarkdown returns a renderer; color false renders without colour (NO_COLOR)
// but keeps bold, italics and underlines.
func NewMarkdown(color bool) *Markdown {
	return &Markdown{color: color}
}

// Render renders md wrapped to width columns. Text is sanitised first, so nothing
// the model wrote can reach the terminal as an escape sequence.
func (m *Markdown) Render(md string, width int) []string {
	lines := mdterm.Render(Sanitize(md), max(width, 10), mdterm.Options{Color: m.color})
	if len(lines) == 0 {
		return []string{""}
	}
	return lines
}

// SplitBlocks cuts streamed Markdown into blocks at blank lines outside code
// fences. Every block but the last is complete and never changes as more text
// arrives, so a face renders it once and re-renders only the last one.
func SplitBlocks(md string) []string {
	var blocks []string
	start, inFence := 0, false
	fence := ""
	pos := 0
	for pos < len(md) {
		end := strings.IndexByte(md[pos:], '\n')
		if end < 0 {
			break
		}
		line := md[pos : pos+end]
		next := pos + end + 1
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case inFence && strings.HasPrefix(trimmed, fence):
			inFence = false
		case !inFence && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			inFence, fence = true, trimmed[:3]
		case !inFence && strings.TrimSpace(line) == "" && next < len(md) && !continuesBlock(md[next:]):
			if b := strings.TrimRight(md[start:pos], "\n"); b != "" {
				blocks = append(blocks, b)
			}
			start = next
		}
		pos = next
	}
	if b := strings.Trim(md[start:], "\n"); b != "" || len(blocks) == 0 {
		blocks = append(blocks, b)
	}
	return blocks
}

// continuesBlock reports whether the text after a blank line still belongs to the
// block before it: an indented line (a loose list item's body, indented code) or
// another blank line.
func continuesBlock(rest string) bool {
	return strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, "\t") || strings.HasPrefix(rest, "\n")
}

// Wrap wraps plain text to width columns, keeping its line breaks.
func Wrap(s string, width int) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		out = append(out, strings.Split(wrapLine(l, width), "\n")...)
	}
	return out
}

// Warm renders a sample with code in common languages, so that building the
// highlighters' parsers and queries happens off the UI loop before the first
// answer, not in the middle of a frame.
func Warm() {
	var b strings.Builder
	for _, lang := range []string{"go", "python", "javascript", "typescript", "bash", "json", "diff", "rust", "java"} {
		b.WriteString("```" + lang + "\nx := 1\n```\n\n")
	}
	_ = NewMarkdown(true).Render(b.String(), 80)
}
