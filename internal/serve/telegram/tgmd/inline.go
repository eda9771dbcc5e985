package tgmd

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

func (r *renderer) inlines(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inline(c)
	}
}

func (r *renderer) inline(n ast.Node) {
	switch n := n.(type) {
	case *ast.Text:
		v := n.Value(r.src)
		if n.IsRaw() || !escaped(v) {
			r.w.bytes(v)
		} else {
			r.w.text(decode(v))
		}
		if n.HardLineBreak() || n.SoftLineBreak() {
			r.w.newline()
		}
	case *ast.String:
		r.w.text(clean(string(n.Value)))
	case *ast.CodeSpan:
		r.codeSpan(n)
	case *ast.Emphasis:
		t := tagItalic
		if n.Level >= 2 {
			t = tagBold
		}
		r.styled(n, t)
	case *east.Strikethrough:
		r.styled(n, tagStrike)
	case *ast.Link:
		r.link(n, string(n.Destination))
	case *ast.Image:
		r.link(n, string(n.Destination))
	case *ast.AutoLink:
		r.autoLink(n)
	case *ast.RawHTML:
		// The model's HTML is text: Telegram would reject most tags, and a
		// valid one would change the meaning of the message.
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			r.w.text(string(seg.Value(r.src)))
		}
	case *east.TaskCheckBox:
		if n.IsChecked {
			r.w.text("☑ ")
		} else {
			r.w.text("☐ ")
		}
	default:
		r.inlines(n)
	}
}

// decode resolves backslash escapes and character references, as CommonMark
// does for text outside code: "&lt;" in Markdown means "<".
func decode(v []byte) string {
	if !escaped(v) {
		return string(v)
	}
	v = util.UnescapePunctuations(v)
	v = util.ResolveNumericReferences(v)
	v = util.ResolveEntityNames(v)
	return clean(string(v))
}

// escaped reports whether v holds a backslash escape or a reference.
func escaped(v []byte) bool {
	return bytes.IndexByte(v, '\\') >= 0 || bytes.IndexByte(v, '&') >= 0
}

func (r *renderer) styled(n ast.Node, t *tag) {
	done := r.w.open(t)
	r.inlines(n)
	done()
}

func (r *renderer) codeSpan(n *ast.CodeSpan) {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Value(r.src))
		} else if s, ok := c.(*ast.String); ok {
			b.Write(s.Value)
		}
	}
	code := strings.ReplaceAll(b.String(), "\n", " ")
	if r.w.inside(kindLink) {
		// Telegram's code cannot sit in a link: the link wins.
		r.w.text(code)
		return
	}
	done := r.w.openCode(tagCode)
	r.w.text(code)
	done()
}

// link renders a link or an image (as a link to it). Only the schemes a chat
// can open become <a>; any other destination is shown after its label, so the
// reader loses nothing and no javascript: or relative link is ever clickable.
func (r *renderer) link(n ast.Node, dest string) {
	label := plainText(n, r.src)
	bare := label == ""
	if bare {
		// The destination stands in for the label: a tag needs text to exist.
		label = dest
	}
	if !safeHref(dest) || r.w.inside(kindLink) {
		r.inlinesOrLabel(n, label, bare)
		if dest != "" && dest != label {
			r.w.text(" (" + dest + ")")
		}
		return
	}
	done := r.w.open(&tag{open: `<a href="` + escapeAttr(dest) + `">`, close: "</a>", kind: kindLink})
	r.inlinesOrLabel(n, label, bare)
	done()
}

// inlinesOrLabel renders a link's children, or the label alone for an image
// (its alt text carries no formatting) or a link with no text of its own.
func (r *renderer) inlinesOrLabel(n ast.Node, label string, bare bool) {
	if _, ok := n.(*ast.Image); ok || bare {
		r.w.text(label)
		return
	}
	r.inlines(n)
}

func (r *renderer) autoLink(n *ast.AutoLink) {
	url := string(n.URL(r.src))
	if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:") {
		url = "mailto:" + url
	}
	label := string(n.Label(r.src))
	if !safeHref(url) || r.w.inside(kindLink) {
		r.w.text(label)
		return
	}
	done := r.w.open(&tag{open: `<a href="` + escapeAttr(url) + `">`, close: "</a>", kind: kindLink})
	r.w.text(label)
	done()
}

// safeHref reports whether a destination may become a Telegram link.
func safeHref(dest string) bool {
	if strings.ContainsAny(dest, " \t\n<>") {
		return false
	}
	scheme, rest, ok := strings.Cut(dest, ":")
	if !ok || rest == "" {
		return false
	}
	switch strings.ToLower(scheme) {
	case "http", "https":
		return strings.HasPrefix(rest, "//") && len(rest) > 2
	case "tg", "mailto":
		return true
	}
	return false
}

// plainText is the text of n's inline children without formatting.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			if t.IsRaw() {
				b.Write(t.Value(src))
			} else {
				b.WriteString(decode(t.Value(src)))
			}
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}
