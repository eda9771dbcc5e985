package mdterm

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/text"
)

// code renders a code block: indented by two columns, highlighted when its language
// has a grammar (or is a diff), long lines cut rather than wrapped at words.
func (r *renderer) code(lang string, segs *text.Segments, width int) []string {
	var b strings.Builder
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		b.Write(seg.Value(r.src))
	}
	// Tabs would be as wide as the terminal decides: four columns, always.
	src := strings.ReplaceAll(strings.TrimRight(b.String(), "\n"), "\t", "    ")
	lang = strings.ToLower(strings.TrimSpace(lang))
	var lines []string
	switch {
	case lang == "diff" || lang == "patch":
		for l := range strings.SplitSeq(src, "\n") {
			lines = append(lines, diffStyle(l).apply(l, r.o.Color))
		}
	default:
		lines = r.styled(src, highlight(lang, src))
	}
	const indent = "  "
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		for w := range strings.SplitSeq(ansi.Hardwrap(l, max(width-len(indent), 4), true), "\n") {
			out = append(out, indent+w)
		}
	}
	return balance(out)
}

// styled applies one style per byte of src, run by run, and splits the lines.
func (r *renderer) styled(src string, styles []style) []string {
	if styles == nil {
		return strings.Split(src, "\n")
	}
	var lines []string
	var line strings.Builder
	start := 0
	flush := func(end int) {
		if end > start {
			line.WriteString(styles[start].apply(src[start:end], r.o.Color))
		}
		start = end
	}
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '\n':
			flush(i)
			lines = append(lines, line.String())
			line.Reset()
			start = i + 1
		case i > start && styles[i] != styles[start]:
			flush(i)
		}
	}
	flush(len(src))
	return append(lines, line.String())
}

// balance ends every line with its styles closed and opens them again on the next
// one, so a line can be drawn alone (the UI lays lines out one by one).
func balance(lines []string) []string {
	active := ""
	for i, l := range lines {
		if active != "" {
			l = active + l
		}
		active = openStyle(l)
		if active != "" {
			l += "\x1b[0m"
		}
		lines[i] = l
	}
	return lines
}

// openStyle is the last SGR sequence of l not followed by a reset, or "".
func openStyle(l string) string {
	last := ""
	for i := 0; i < len(l); i++ {
		if l[i] != 0x1b || i+1 >= len(l) || l[i+1] != '[' {
			continue
		}
		j := i + 2
		for j < len(l) && (l[j] == ';' || (l[j] >= '0' && l[j] <= '9')) {
			j++
		}
		if j < len(l) && l[j] == 'm' {
			seq := l[i : j+1]
			if seq == "\x1b[0m" || seq == "\x1b[m" {
				last = ""
			} else {
				last = seq
			}
			i = j
		}
	}
	return last
}
