package tgmd

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
)

// parallelMin is the size from which build parses an answer in pieces, one per
// core: goldmark's parse is two thirds of the time and runs on one core.
// Below it, starting goroutines costs more than it saves (judgement: a
// 256 KiB answer takes about 12 ms).
const parallelMin = 256 << 10

// build parses markdown and renders it into a stream.
func build(markdown string) *stream {
	return buildIn(markdown, runtime.GOMAXPROCS(0), parallelMin)
}

// buildIn renders markdown in up to n pieces when it has at least min bytes.
func buildIn(markdown string, n, min int) *stream {
	src := []byte(clean(markdown))
	var pieces [][]byte
	if n > 1 && len(src) >= min {
		pieces = cutSource(src, n)
	}
	if len(pieces) < 2 {
		return render(src).w.finish()
	}
	rs := make([]*renderer, len(pieces))
	var wg sync.WaitGroup
	for i, p := range pieces {
		wg.Go(func() { rs[i] = render(p) })
	}
	wg.Wait()
	return join(rs)
}

// join concatenates the streams of consecutive pieces, separated as build
// separates two top-level blocks: a blank line, a gap that is sticky when the
// piece before ended with a heading.
func join(rs []*renderer) *stream {
	var s stream
	var vis strings.Builder
	size, nruns, ngaps := 0, 0, 0
	for _, r := range rs {
		size += r.w.vis.Len() + 2
		nruns += len(r.w.s.runs) + 1
		ngaps += len(r.w.s.gaps) + 1
	}
	vis.Grow(size)
	s.runs = make([]run, 0, nruns)
	s.gaps = make([]gap, 0, ngaps)
	sticky := false
	for _, r := range rs {
		p := r.w.finish()
		if p.vis == "" {
			sticky = sticky || r.w.sepSticky
			continue
		}
		if vis.Len() > 0 {
			start := vis.Len()
			vis.WriteString("\n\n")
			s.runs = append(s.runs, run{end: vis.Len()})
			s.gaps = append(s.gaps, gap{start: start, end: vis.Len(), sticky: sticky})
		}
		off := vis.Len()
		vis.WriteString(p.vis)
		for _, rn := range p.runs {
			rn.end += off
			s.runs = append(s.runs, rn)
		}
		for _, g := range p.gaps {
			g.start, g.end = g.start+off, g.end+off
			s.gaps = append(s.gaps, g)
		}
		sticky = r.w.sepSticky
	}
	s.vis = vis.String()
	return &s
}

// cutSource cuts a Markdown source into about n pieces at lines where a
// top-level paragraph starts: after a blank line, outside fenced code and
// the HTML blocks that run over blank lines, at a letter in the first column.
// Such a line ends any list, quote or indented code before it, so each piece
// parses to the very blocks the whole would. A source with link reference
// definitions stays whole: a link may use a definition in another piece.
func cutSource(src []byte, n int) [][]byte {
	if hasLinkDefinition(src) {
		return nil
	}
	var pieces [][]byte
	target := len(src) / n
	start := 0
	var sc blockScanner
	prevBlank := false
	for i := 0; i < len(src); {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i + 1
		}
		line := src[i:end]
		if prevBlank && !sc.inside() && i-start >= target && len(pieces) < n-1 && startsParagraph(line) {
			pieces = append(pieces, src[start:i])
			start = i
		}
		if sc.line(line); sc.lost {
			break
		}
		prevBlank = isBlank(line)
		i = end
	}
	return append(pieces, src[start:])
}

// blockScanner follows the blocks that a blank line does not end. A fence
// opened in a list item ends with the item; when an item ends by a line
// indented less than its fence, the scanner cannot tell whether the fence was
// in a list or indented at the top level, so it gives up (lost) and the rest
// of the source stays in one piece.
type blockScanner struct {
	fence       byte // '`' or '~' while in fenced code
	fenceLen    int
	fenceIndent int
	htmlUntil   string // the end marker of an open HTML block
	lost        bool
}

func (b *blockScanner) inside() bool { return b.fence != 0 || b.htmlUntil != "" }

func (b *blockScanner) line(line []byte) {
	if b.htmlUntil != "" {
		if bytes.Contains(line, []byte(b.htmlUntil)) {
			b.htmlUntil = ""
		}
		return
	}
	indent, rest := indentOf(line)
	if b.fence != 0 {
		if b.fenceIndent > 0 && indent < b.fenceIndent && !isBlank(line) {
			b.lost = true
			return
		}
		if c, k := fenceRun(rest); indent <= 3 && c == b.fence && k >= b.fenceLen && isBlank(rest[k:]) {
			b.fence = 0
		}
		return
	}
	if indent > 3 {
		return
	}
	if m := listMarker(rest); m > 0 {
		more, after := indentOf(rest[m:])
		indent, rest = indent+m+more, after
	}
	if c, k := fenceRun(rest); k >= 3 && (c == '~' || bytes.IndexByte(rest[k:], '`') < 0) {
		b.fence, b.fenceLen, b.fenceIndent = c, k, indent
		return
	}
	if indent <= 3 {
		b.htmlUntil = htmlBlockEnd(rest)
		if b.htmlUntil != "" && bytes.Contains(rest[1:], []byte(b.htmlUntil)) {
			b.htmlUntil = ""
		}
	}
}

func indentOf(line []byte) (int, []byte) {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n, line[n:]
}

// listMarker returns the length of the bullet or number and the space after
// it that start s, or 0.
func listMarker(s []byte) int {
	i := 0
	switch {
	case len(s) > 0 && (s[0] == '-' || s[0] == '*' || s[0] == '+'):
		i = 1
	default:
		for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i >= len(s) || s[i] != '.' && s[i] != ')' {
			return 0
		}
		i++
	}
	if i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' {
		return 0
	}
	return i
}

// fenceRun returns the fence character opening s and how many repeat it.
func fenceRun(s []byte) (byte, int) {
	if len(s) == 0 || s[0] != '`' && s[0] != '~' {
		return 0, 0
	}
	k := 0
	for k < len(s) && s[k] == s[0] {
		k++
	}
	return s[0], k
}

// htmlBlockEnd returns the end marker of the CommonMark HTML blocks (kinds 1
// to 5) that s starts, the only ones a blank line does not end.
func htmlBlockEnd(s []byte) string {
	if len(s) < 2 || s[0] != '<' {
		return ""
	}
	low := bytes.ToLower(s[:min(len(s), 12)])
	for _, t := range []string{"script", "pre", "style", "textarea"} {
		if bytes.HasPrefix(low[1:], []byte(t)) {
			if len(low) == len(t)+1 || strings.IndexByte(" \t\n>", low[len(t)+1]) >= 0 {
				return "</" + t + ">"
			}
		}
	}
	switch {
	case bytes.HasPrefix(s, []byte("<!--")):
		return "-->"
	case bytes.HasPrefix(s, []byte("<?")):
		return "?>"
	case bytes.HasPrefix(s, []byte("<![CDATA[")):
		return "]]>"
	case len(s) > 2 && s[1] == '!' && s[2] >= 'A' && s[2] <= 'Z':
		return ">"
	}
	return ""
}

func startsParagraph(line []byte) bool {
	c := line[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isBlank(line []byte) bool {
	return len(bytes.Trim(line, " \t\r\n")) == 0
}

// hasLinkDefinition reports whether a line looks like "[label]: destination".
func hasLinkDefinition(src []byte) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte("]:"))
		if j < 0 {
			return false
		}
		j += i
		ls := bytes.LastIndexByte(src[:j], '\n') + 1
		// Definitions count inside quotes and list items too.
		if k := j - len(bytes.TrimLeft(src[ls:j], " \t>-*+0123456789.)")); k < j && src[k] == '[' {
			return true
		}
		i = j + 2
	}
}
