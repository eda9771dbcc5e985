package tgmd

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// chunk is one message's stretch of the visible text.
type chunk struct{ from, to int }

// cuts cuts the visible text into chunks of at most limit UTF-16 code units.
// Each cut is the last one in the window of its most preferred kind: between
// blocks, then between lines, then between words, then anywhere between
// characters. A cut in the first third of the window is taken only when no
// other kind lies beyond it, so a short heading does not become a message.
func (s *stream) cuts(limit int) []chunk {
	var out []chunk
	p := 0
	for p < len(s.vis) {
		p = skipNewlines(s.vis, p)
		e := window(s.vis, p, limit)
		if e == p && p < len(s.vis) {
			// A character wider than the limit: it goes alone, over it.
			_, size := utf8.DecodeRuneInString(s.vis[p:])
			e = p + size
		}
		if e == len(s.vis) {
			out = appendChunk(out, s.vis, p, e)
			break
		}
		to, next := s.cutIn(p, e)
		out = appendChunk(out, s.vis, p, to)
		p = next
	}
	return out
}

// window returns the end of the longest stretch from p that fits limit.
func window(vis string, p, limit int) int {
	units := 0
	for i, r := range vis[p:] {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > limit {
			return p + i
		}
		units += w
	}
	return len(vis)
}

// cutIn picks where the chunk from p, which must end by e, ends (to) and
// where the next starts (next), dropping the separator between them.
func (s *stream) cutIn(p, e int) (to, next int) {
	floors := [2]int{p + (e-p)/3, p + 1}
	for pass, floor := range floors {
		if g, ok := s.lastGap(floor, e, pass == 1); ok {
			return g.start, g.end
		}
		if i := strings.LastIndexByte(s.vis[floor:min(e+1, len(s.vis))], '\n'); i >= 0 {
			return floor + i, floor + i + 1
		}
		if i := strings.LastIndexAny(s.vis[floor:min(e+1, len(s.vis))], " \t"); i >= 0 {
			return floor + i, floor + i + 1
		}
	}
	e = graphemeStart(s.vis, p, e)
	return e, e
}

// lastGap finds the last block separator starting within [floor, e],
// passing over those after a heading unless sticky is allowed.
func (s *stream) lastGap(floor, e int, sticky bool) (gap, bool) {
	i := sort.Search(len(s.gaps), func(i int) bool { return s.gaps[i].start > e })
	for i--; i >= 0 && s.gaps[i].start >= floor; i-- {
		if sticky || !s.gaps[i].sticky {
			return s.gaps[i], true
		}
	}
	return gap{}, false
}

// graphemeStart moves a hard cut at e back before any combining mark, joiner
// or variation selector, so an accented letter or a composed emoji is not
// torn in two; it gives up after a few characters.
func graphemeStart(vis string, p, e int) int {
	for range 8 {
		r, _ := utf8.DecodeRuneInString(vis[e:])
		prev, size := utf8.DecodeLastRuneInString(vis[p:e])
		if !joins(r) && prev != 0x200d || e-size <= p {
			return e
		}
		e -= size
	}
	return e
}

func joins(r rune) bool {
	return r == 0x200d || r >= 0xfe00 && r <= 0xfe0f || r >= 0x1f3fb && r <= 0x1f3ff ||
		r == 0x20e3 || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r)
}

func skipNewlines(vis string, p int) int {
	for p < len(vis) && vis[p] == '\n' {
		p++
	}
	return p
}

// appendChunk adds vis[from:to] without its trailing whitespace, unless it
// is nothing but whitespace: Telegram refuses an empty message.
func appendChunk(out []chunk, vis string, from, to int) []chunk {
	to = from + len(strings.TrimRight(vis[from:to], " \t\n"))
	if strings.TrimSpace(vis[from:to]) == "" {
		return out
	}
	return append(out, chunk{from, to})
}
