package tgmd

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// visibleText parses s as Telegram HTML and returns its text after entity
// parsing, or why Telegram would refuse it: a tag outside the subset, a bad
// attribute, a forbidden nesting, an unbalanced tag, an unknown entity.
func visibleText(s string) (string, error) {
	var vis strings.Builder
	var stack []string
	for i := 0; i < len(s); {
		switch s[i] {
		case '<':
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				return "", fmt.Errorf("unterminated tag at %d", i)
			}
			if err := checkTag(s[i+1:i+end], &stack); err != nil {
				return "", fmt.Errorf("at %d: %w", i, err)
			}
			i += end + 1
		case '&':
			end := strings.IndexByte(s[i:], ';')
			if end < 0 {
				return "", fmt.Errorf("bare & at %d", i)
			}
			r, err := entity(s[i+1 : i+end])
			if err != nil {
				return "", err
			}
			vis.WriteString(r)
			i += end + 1
		case '>':
			return "", fmt.Errorf("raw > at %d", i)
		default:
			vis.WriteByte(s[i])
			i++
		}
	}
	if len(stack) > 0 {
		return "", fmt.Errorf("unclosed %v", stack)
	}
	return vis.String(), nil
}

var (
	hrefAttr = regexp.MustCompile(`^a href="(?:[^"<>&]|&amp;|&quot;|&lt;|&gt;)+"$`)
	codeLang = regexp.MustCompile(`^code class="language-[A-Za-z0-9+#._-]+"$`)
)

func checkTag(body string, stack *[]string) error {
	if name, ok := strings.CutPrefix(body, "/"); ok {
		if top(*stack) != name {
			return fmt.Errorf("</%s> closes %q", name, top(*stack))
		}
		*stack = (*stack)[:len(*stack)-1]
		return nil
	}
	name, _, _ := strings.Cut(body, " ")
	switch {
	case body == "b" || body == "i" || body == "s" || body == "u":
	case body == "blockquote" || body == "blockquote expandable":
	case body == "pre":
	case body == "code" || codeLang.MatchString(body):
	case hrefAttr.MatchString(body):
	default:
		return fmt.Errorf("tag <%s> not in Telegram's subset", body)
	}
	parent := top(*stack)
	switch {
	case parent == "code":
		return fmt.Errorf("<%s> inside <code>", name)
	case parent == "pre" && name != "code":
		return fmt.Errorf("<%s> inside <pre>", name)
	case name == "code" && body != "code" && parent != "pre":
		return fmt.Errorf("language class outside <pre>")
	case (name == "code" || name == "pre") && parent != "" && parent != "blockquote" && parent != "pre":
		return fmt.Errorf("<%s> inside <%s>", name, parent)
	case name == "blockquote" && contains(*stack, "blockquote"):
		return fmt.Errorf("nested blockquote")
	case name == "a" && contains(*stack, "a"):
		return fmt.Errorf("nested link")
	}
	*stack = append(*stack, name)
	return nil
}

func entity(name string) (string, error) {
	switch name {
	case "lt":
		return "<", nil
	case "gt":
		return ">", nil
	case "amp":
		return "&", nil
	case "quot":
		return `"`, nil
	}
	if n, ok := strings.CutPrefix(name, "#"); ok {
		base := 10
		if h, ok := strings.CutPrefix(n, "x"); ok {
			n, base = h, 16
		}
		if v, err := strconv.ParseInt(n, base, 32); err == nil {
			return string(rune(v)), nil
		}
	}
	return "", fmt.Errorf("unknown entity &%s;", name)
}

func top(stack []string) string {
	if len(stack) == 0 {
		return ""
	}
	return stack[len(stack)-1]
}

func contains(stack []string, name string) bool {
	for _, s := range stack {
		if s == name {
			return true
		}
	}
	return false
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// checkMessages verifies every message of md split at limit: valid Telegram
// HTML whose visible text is Plain, within limit, not blank; and that the
// messages in order give the whole answer's visible text, whitespace at the
// cuts aside.
func checkMessages(md string, limit int, msgs []Message) error {
	whole, err := visibleText(Render(md))
	if err != nil {
		return fmt.Errorf("Render: %w", err)
	}
	pos := 0
	for i, m := range msgs {
		vis, err := visibleText(m.HTML)
		if err != nil {
			return fmt.Errorf("message %d: %w\n%s", i, err, m.HTML)
		}
		if vis != m.Plain {
			return fmt.Errorf("message %d: Plain %q differs from the HTML's text %q", i, m.Plain, vis)
		}
		if n := utf16Len(vis); n > limit {
			return fmt.Errorf("message %d: %d UTF-16 units over limit %d", i, n, limit)
		}
		if !utf8.ValidString(m.HTML) {
			return fmt.Errorf("message %d is not valid UTF-8", i)
		}
		if at := strings.IndexFunc(vis, isControl); at >= 0 {
			return fmt.Errorf("message %d: control character %q", i, vis[at:at+1])
		}
		if strings.TrimSpace(vis) == "" {
			return fmt.Errorf("message %d is blank", i)
		}
		pos += len(whole[pos:]) - len(strings.TrimLeft(whole[pos:], " \t\n"))
		body := strings.TrimLeft(vis, " \t\n")
		if !strings.HasPrefix(whole[pos:], body) {
			return fmt.Errorf("message %d does not continue the answer:\n got %.80q\nwant %.80q", i, body, whole[pos:])
		}
		pos += len(body)
	}
	if rest := strings.TrimSpace(whole[pos:]); rest != "" {
		return fmt.Errorf("text lost after the last message: %.80q", rest)
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f }
