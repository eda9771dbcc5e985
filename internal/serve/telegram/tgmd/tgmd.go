// Package tgmd turns a model's Markdown answer into Telegram messages: HTML in
// the subset the Bot API accepts, cut within its length limit by the rendered
// structure, each with a plain-text twin for when Telegram refuses the HTML.
//
// The Markdown is parsed by goldmark into a flat stream of visible text whose
// runs each carry the stack of tags around them. Cuts are chosen on the visible
// text (what Telegram counts), and each message re-emits its own opening and
// closing tags, so no message is ever cut inside a tag, an entity or a code
// block, and nothing the model writes can be mistaken for markup.
package tgmd

// Limit is Telegram's cap on a message's text after entity parsing, counted in
// UTF-16 code units (Bot API sendMessage: "1-4096 characters after entities
// parsing"; UTF-16 is how it counts entity offsets, so the safe reading).
const Limit = 4096

// Message is one Telegram message of a rendered answer.
type Message struct {
	// HTML is sent with parse_mode=HTML.
	HTML string
	// Plain is the same text without markup, sent when Telegram refuses HTML.
	Plain string
}

// Render converts Markdown to Telegram HTML, whole and uncut.
func Render(markdown string) string {
	s := build(markdown)
	return string(s.html(nil, 0, len(s.vis)))
}

// Split renders markdown and cuts it into messages whose visible text fits
// limit UTF-16 code units (Limit when limit <= 0). It returns no message for an
// answer with no visible text.
func Split(markdown string, limit int) []Message {
	if limit <= 0 {
		limit = Limit
	}
	s := build(markdown)
	cuts := s.cuts(limit)
	out := make([]Message, 0, len(cuts))
	var buf []byte // reused: each message's HTML is copied out once
	for _, c := range cuts {
		buf = s.html(buf[:0], c.from, c.to)
		out = append(out, Message{HTML: string(buf), Plain: s.vis[c.from:c.to]})
	}
	return out
}
