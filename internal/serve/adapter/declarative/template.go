package declarative

import (
	"fmt"
	"strings"
)

// The placeholders of a declarative adapter's argv and env. Values expand to request
// fields; conditions open a group that is kept only when they hold; the list expands
// to several arguments.
var (
	valuePlaceholders = []string{"binary", "prompt", "workspace", "model", "system_prompt",
		"append_system_prompt", "resume", "thinking", "tools", "json_schema"}
	conditionPlaceholders = []string{"continue", "fresh", "no_tools"}
	listPlaceholder       = "extra_args"
)

// segment is a literal or a placeholder of a template string.
type segment struct {
	text        string
	placeholder bool
}

// template is one argv element or env value: "--model={model}".
type template []segment

// parseTemplate reads s, where {name} is a placeholder and {{ }} are literal braces.
func parseTemplate(s string) (template, error) {
	var t template
	var lit strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "{{"), strings.HasPrefix(s[i:], "}}"):
			lit.WriteByte(s[i])
			i++
		case s[i] == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("%q: unclosed \"{\" (write \"{{\" for a literal brace)", s)
			}
			if lit.Len() > 0 {
				t = append(t, segment{text: lit.String()})
				lit.Reset()
			}
			t = append(t, segment{text: s[i+1 : i+end], placeholder: true})
			i += end
		case s[i] == '}':
			return nil, fmt.Errorf("%q: stray \"}\" (write \"}}\" for a literal brace)", s)
		default:
			lit.WriteByte(s[i])
		}
	}
	if lit.Len() > 0 || len(t) == 0 {
		t = append(t, segment{text: lit.String()})
	}
	return t, nil
}

// only returns the placeholder name when t is exactly one placeholder.
func (t template) only() (string, bool) {
	if len(t) == 1 && t[0].placeholder {
		return t[0].text, true
	}
	return "", false
}

func (t template) placeholders() []string {
	var names []string
	for _, s := range t {
		if s.placeholder {
			names = append(names, s.text)
		}
	}
	return names
}

// expand fills t from values; ok is false when a placeholder it uses is empty, and
// the element is then left out.
func (t template) expand(values map[string]string) (string, bool) {
	var b strings.Builder
	for _, s := range t {
		if !s.placeholder {
			b.WriteString(s.text)
			continue
		}
		v := values[s.text]
		if v == "" {
			return "", false
		}
		b.WriteString(v)
	}
	return b.String(), true
}
