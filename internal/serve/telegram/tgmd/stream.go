package tgmd

import (
	"sort"
	"strings"
)

// tag is one Telegram HTML element. Its open text may change after its
// content is known (a long quote becomes expandable), hence the pointer.
type tag struct {
	open, close string
	kind        tagKind
}

type tagKind uint8

const (
	kindFormat tagKind = iota // b, i, s: may nest in anything but code
	kindLink                  // a href
	kindCode                  // code, pre: contain nothing else
	kindQuote                 // blockquote: never nested
)

// frame is a node of a persistent stack of open tags; runs share frames, so
// two runs under the same tags point at the same frame.
type frame struct {
	tag    *tag
	parent *frame
	depth  int
}

func push(parent *frame, t *tag) *frame {
	d := 1
	if parent != nil {
		d = parent.depth + 1
	}
	return &frame{tag: t, parent: parent, depth: d}
}

// run is a stretch of visible text, ending at byte end of stream.vis, under
// the tags of top (nil: none).
type run struct {
	end int
	top *frame
}

// gap is a separator between two blocks: vis[start:end] is the newlines a
// cut there drops. A gap after a heading is sticky: a cut there would leave
// the heading alone at the end of a message, away from what it introduces.
type gap struct {
	start, end int
	sticky     bool
}

// stream is a rendered answer: its visible text, the tags over each run of
// it, and where its blocks meet.
type stream struct {
	vis  string
	runs []run
	gaps []gap
}

// html appends the Telegram HTML of vis[from:to] to dst, opening the tags
// in force at from and closing those still open at to.
func (s *stream) html(dst []byte, from, to int) []byte {
	i := sort.Search(len(s.runs), func(i int) bool { return s.runs[i].end > from })
	var cur *frame
	start := from
	for ; i < len(s.runs) && start < to; i++ {
		r := s.runs[i]
		end := min(r.end, to)
		if end > start {
			dst = transition(dst, cur, r.top)
			cur = r.top
			dst = escapeText(dst, s.vis[start:end])
		}
		start = end
	}
	return transition(dst, cur, nil)
}

// transition closes the tags of from that to does not have and opens those of
// to that from does not have.
func transition(dst []byte, from, to *frame) []byte {
	if from == to {
		return dst
	}
	a, b := from, to
	var opens []*tag
	for depth(a) > depth(b) {
		dst = append(dst, a.tag.close...)
		a = a.parent
	}
	for depth(b) > depth(a) {
		opens = append(opens, b.tag)
		b = b.parent
	}
	for a != b {
		dst = append(dst, a.tag.close...)
		opens = append(opens, b.tag)
		a, b = a.parent, b.parent
	}
	for i := len(opens) - 1; i >= 0; i-- {
		dst = append(dst, opens[i].open...)
	}
	return dst
}

func depth(f *frame) int {
	if f == nil {
		return 0
	}
	return f.depth
}

// escapeText escapes exactly what Telegram's HTML parser reads as markup.
func escapeText(dst []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var rep string
		switch s[i] {
		case '&':
			rep = "&amp;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		default:
			continue
		}
		dst = append(dst, s[last:i]...)
		dst = append(dst, rep...)
		last = i + 1
	}
	return append(dst, s[last:]...)
}

// escapeAttr escapes an attribute value written between double quotes.
func escapeAttr(s string) string {
	s = string(escapeText(nil, s))
	return strings.ReplaceAll(s, `"`, "&quot;")
}
