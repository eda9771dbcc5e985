package shellcmd

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word as the program would receive it, as far as it can be known
// before the command runs.
type word struct {
	// text is the word after quote removal; a plain parameter expansion reads $NAME
	// (so "$HOME" and ${HOME} both read $HOME), any other expansion as written.
	text string
	// lit reports that the word holds no expansion: text is exactly what the program
	// receives, globbing and tilde expansion aside.
	lit bool
	// bare reports that the word may become other or several words: it holds an
	// unquoted expansion (split on spaces), or an unquoted glob or brace character
	// (a file named --pre=x or a[$(cmd)] matches *).
	bare bool
}

func words(ws []*syntax.Word) []word {
	out := make([]word, len(ws))
	for i, w := range ws {
		out[i] = wordOf(w)
	}
	return out
}

func wordOf(w *syntax.Word) word {
	var b strings.Builder
	lit, bare := true, false
	for _, p := range w.Parts {
		lit = appendPart(&b, p, false) && lit
		bare = bare || unquotedSplits(p)
	}
	return word{text: b.String(), lit: lit, bare: bare}
}

// unquotedSplits reports whether an unquoted part of a word may expand into other
// or several words.
func unquotedSplits(p syntax.WordPart) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		return strings.ContainsAny(p.Value, "*?[{")
	case *syntax.SglQuoted:
		return false
	case *syntax.DblQuoted:
		// "$@", "${a[@]}" and "${!prefix@}" are several words even when quoted.
		for _, q := range p.Parts {
			if pe, ok := q.(*syntax.ParamExp); ok && (pe.Param != nil && pe.Param.Value == "@" || pe.Index != nil || pe.Names != 0) {
				return true
			}
		}
		return false
	}
	return true
}

// literal returns the text of w when it holds no expansion.
func literal(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	x := wordOf(w)
	return x.text, x.lit
}

// appendPart writes the quote-removed text of p and reports whether it is literal.
func appendPart(b *strings.Builder, p syntax.WordPart, inDouble bool) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		b.WriteString(unescape(p.Value, inDouble))
		return true
	case *syntax.SglQuoted:
		if p.Dollar { // $'\x73udo': ANSI-C escapes are not decoded, so not vouched for
			b.WriteString(source(p))
			return false
		}
		b.WriteString(p.Value)
		return true
	case *syntax.DblQuoted:
		lit := true
		for _, q := range p.Parts {
			lit = appendPart(b, q, true) && lit
		}
		return lit
	case *syntax.ParamExp:
		if plainParam(p) {
			b.WriteString("$" + p.Param.Value)
		} else {
			b.WriteString(source(p))
		}
		return false
	default:
		b.WriteString(source(p))
		return false
	}
}

func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.NestedParam == nil && !p.Excl && !p.Length && !p.Width &&
		p.Index == nil && p.Slice == nil && p.Repl == nil && p.Exp == nil && p.Names == 0 &&
		len(p.Modifiers) == 0
}

// unescape removes backslash quoting: outside quotes a backslash escapes any
// character, inside double quotes only $ ` " \ and newline; an escaped newline is a
// line continuation and disappears.
func unescape(s string, inDouble bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			next := s[i+1]
			if !inDouble || strings.IndexByte("$`\"\\\n", next) >= 0 {
				i++
				if next != '\n' {
					b.WriteByte(next)
				}
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// maxSource bounds the source printed for a node: printing every node of a deeply
// nested line would take time quadratic in its length (5,000 nested $( took 9 s,
// found by FuzzClassify's time bound). 256 bytes is more than a reason shows.
const maxSource = 256

// source prints a node as shell source, for reasons shown to people; a long node is
// named by its length.
func source(n syntax.Node) string {
	if p, e := n.Pos(), n.End(); p.IsValid() && e.IsValid() && e.Offset()-p.Offset() > maxSource {
		return fmt.Sprintf("(%d bytes of shell)", e.Offset()-p.Offset())
	}
	var b strings.Builder
	if err := syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, n); err != nil {
		return "?"
	}
	return b.String()
}

// shorten cuts a construct's source to a readable length for a reason.
func shorten(s string) string {
	// 60 bytes: enough for a program and its first arguments; chosen by judgement.
	if len(s) > 60 {
		cut := 60
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// display renders a simple command for a reason, cut to a readable length.
func display(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.text
	}
	return "`" + shorten(strings.Join(parts, " ")) + "`"
}
