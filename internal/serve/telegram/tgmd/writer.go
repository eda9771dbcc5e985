package tgmd

import "strings"

// writer appends visible text to a stream under the current tags. Separators
// between blocks are held until the next text arrives, so an empty block adds
// no blank line and the answer never starts or ends with one.
type writer struct {
	vis    strings.Builder
	s      stream
	top    *frame
	indent string // written after every newline: the list nesting

	sepLines  int // newlines pending before the next text
	sepTop    *frame
	sepIndent string
	sepSticky bool // the pending separator follows a heading
}

// text writes visible text under the current tags.
func (w *writer) text(t string) {
	if t == "" {
		return
	}
	w.flushSep()
	w.emit(t, w.top)
}

// bytes is text for the parser's own slices, without a copy to a string.
func (w *writer) bytes(t []byte) {
	if len(t) == 0 {
		return
	}
	w.flushSep()
	w.vis.Write(t)
	w.extend(w.top)
}

func (w *writer) flushSep() {
	if w.sepLines > 0 {
		lines := w.sepLines
		sticky := w.sepSticky
		w.sepLines, w.sepSticky = 0, false
		if w.vis.Len() > 0 {
			start := w.vis.Len()
			w.emit("\n\n"[:lines], w.sepTop)
			w.s.gaps = append(w.s.gaps, gap{start: start, end: w.vis.Len(), sticky: sticky})
			w.emit(w.sepIndent, w.sepTop)
		}
	}
}

func (w *writer) emit(t string, top *frame) {
	if t == "" {
		return
	}
	w.vis.WriteString(t)
	w.extend(top)
}

// extend ends the last run at the end of the text, or starts a new one when
// the tags changed.
func (w *writer) extend(top *frame) {
	if n := len(w.s.runs); n > 0 && w.s.runs[n-1].top == top {
		w.s.runs[n-1].end = w.vis.Len()
		return
	}
	w.s.runs = append(w.s.runs, run{end: w.vis.Len(), top: top})
}

// newline breaks the line inside a block, keeping the list indentation.
func (w *writer) newline() {
	w.text("\n")
	w.emit(w.indent, w.top)
}

// separate asks for lines newlines (1: next line, 2: blank line) before the
// next block.
func (w *writer) separate(lines int) {
	if lines > w.sepLines {
		w.sepLines = lines
	}
	w.sepTop, w.sepIndent = w.top, w.indent
}

// open pushes t over the current tags; the returned func restores them.
func (w *writer) open(t *tag) func() {
	prev := w.top
	w.top = push(prev, t)
	return func() { w.top = prev }
}

// openCode pushes a code or pre tag. Telegram lets code sit in nothing but a
// quote, so the formatting and links around it are closed for its span.
func (w *writer) openCode(tags ...*tag) func() {
	prev := w.top
	base := prev
	for base != nil && base.tag.kind != kindQuote {
		base = base.parent
	}
	for _, t := range tags {
		base = push(base, t)
	}
	w.top = base
	return func() { w.top = prev }
}

// inside reports whether a tag of kind k is open.
func (w *writer) inside(k tagKind) bool {
	for f := w.top; f != nil; f = f.parent {
		if f.tag.kind == k {
			return true
		}
	}
	return false
}

func (w *writer) finish() *stream {
	w.s.vis = w.vis.String()
	return &w.s
}
