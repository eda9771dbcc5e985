package treesitter

import (
	"strings"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Limits on the text copied into a node, so a minified line does not become a
// megabyte signature. Judgement: long enough for any header a person wrote.
const (
	maxSignature = 240
	maxDoc       = 2000
	maxName      = 200
)

func text(n *sitter.Node, src []byte) string {
	if n == nil {
		return ""
	}
	return strings.ToValidUTF8(string(src[n.StartByte():n.EndByte()]), "\uFFFD")
}

func fieldText(n *sitter.Node, field string, src []byte) string {
	return text(n.ChildByFieldName(field), src)
}

// clip cuts s to at most max bytes on a rune boundary.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max]
}

// signature is a definition's header: from its start to its body (or to the end of
// its first line when it has no body), whitespace collapsed, without the `{`, `:` or `=` that
// opens the body.
func signature(n *sitter.Node, rule *DefRule, src []byte) string {
	end := n.EndByte()
	if rule.BodyField != "" {
		if b := n.ChildByFieldName(rule.BodyField); b != nil {
			end = b.StartByte()
			if inner := b.ChildByFieldName("body"); inner != nil { // `f = (a) => {`
				end = inner.StartByte()
			}
		}
	}
	start := n.StartByte()
	if end-start > 4*maxSignature {
		end = start + 4*maxSignature
	}
	s := string(src[start:end])
	if rule.BodyField == "" || end == n.EndByte() {
		for rule.AfterAnnotations && strings.HasPrefix(strings.TrimSpace(s), "@") && strings.Contains(s, "\n") {
			_, s, _ = strings.Cut(s, "\n")
		}
		s, _, _ = strings.Cut(s, "\n")
	}
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	s = strings.TrimRight(s, "{:;= ")
	return clip(s, maxSignature)
}

// commentText strips comment markers from a comment block.
func commentText(raw string) string {
	var lines []string
	for _, l := range strings.Split(raw, "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"///", "//!", "//", "/**", "/*!", "/*", "#"} {
			if strings.HasPrefix(l, p) {
				l = l[len(p):]
				break
			}
		}
		l = strings.TrimSuffix(l, "*/")
		l = strings.TrimPrefix(l, "*")
		lines = append(lines, strings.TrimSpace(l))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// docstringText strips the prefix and quotes of a Python string literal and the
// indentation of its lines.
func docstringText(raw string) string {
	raw = strings.TrimLeft(raw, "rRbBuUfF")
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(raw, q) && strings.HasSuffix(raw, q) && len(raw) >= 2*len(q) {
			raw = raw[len(q) : len(raw)-len(q)]
			break
		}
	}
	lines := strings.Split(raw, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
