package sensitive

import (
	"fmt"
	"strings"
)

// GitConfigEntry is one variable of a git config file: section and key lowercased
// (git compares them without case), the subsection as written (case matters in
// [remote "Origin"]; the old form [remote.origin] is lowercased, as git does).
type GitConfigEntry struct {
	Section, Subsection, Key string
	Value                    string
	NoValue                  bool // "key" alone: a boolean true
}

// Name is the entry's full name as git config prints it: section.subsection.key.
func (e GitConfigEntry) Name() string {
	if e.Subsection != "" {
		return e.Section + "." + e.Subsection + "." + e.Key
	}
	return e.Section + "." + e.Key
}

// ParseGitConfig reads data with git's config syntax: [section], [section
// "subsection"], the old [section.subsection], a header followed by a variable on
// the same line, comments (# and ;), quotes, escapes and backslash-newline
// continuations. What git would refuse is an error naming the line, so a caller
// deciding what is safe never guesses at a file git reads otherwise.
func ParseGitConfig(data []byte) ([]GitConfigEntry, error) {
	p := gitConfigParser{src: strings.ReplaceAll(string(data), "\r\n", "\n"), line: 1}
	p.src = strings.TrimPrefix(p.src, "\ufeff")
	return p.parse()
}

type gitConfigParser struct {
	src       string
	pos, line int
	section   string
	sub       string
	out       []GitConfigEntry
}

func (p *gitConfigParser) errorf(format string, args ...any) error {
	return fmt.Errorf("git config line %d: %s", p.line, fmt.Sprintf(format, args...))
}

// next returns the next byte, or 0 and false at the end.
func (p *gitConfigParser) next() (byte, bool) {
	if p.pos >= len(p.src) {
		return 0, false
	}
	c := p.src[p.pos]
	p.pos++
	if c == '\n' {
		p.line++
	}
	return c, true
}

func (p *gitConfigParser) parse() ([]GitConfigEntry, error) {
	for {
		c, ok := p.next()
		switch {
		case !ok:
			return p.out, nil
		case c == '\n' || isGitSpace(c):
		case c == '#' || c == ';':
			p.skipLine()
		case c == '[':
			if err := p.header(); err != nil {
				return nil, err
			}
		case isAlpha(c):
			p.pos--
			if err := p.variable(); err != nil {
				return nil, err
			}
		default:
			return nil, p.errorf("unexpected %q", c)
		}
	}
}

func (p *gitConfigParser) skipLine() {
	for {
		if c, ok := p.next(); !ok || c == '\n' {
			return
		}
	}
}

// header reads a section header after its '['.
func (p *gitConfigParser) header() error {
	var name strings.Builder
	for {
		c, ok := p.next()
		switch {
		case !ok || c == '\n':
			return p.errorf("section header not closed")
		case c == ']':
			return p.setSection(name.String(), "", false)
		case isGitSpace(c):
			return p.extendedHeader(name.String())
		case isKeyChar(c) || c == '.':
			name.WriteByte(lower(c))
		default:
			return p.errorf("bad character %q in a section name", c)
		}
	}
}

// extendedHeader reads the quoted subsection of [section "subsection"].
func (p *gitConfigParser) extendedHeader(section string) error {
	c, ok := p.next()
	for ok && isGitSpace(c) {
		c, ok = p.next()
	}
	if c != '"' {
		return p.errorf("a subsection must be quoted")
	}
	var sub strings.Builder
	for {
		c, ok = p.next()
		switch {
		case !ok || c == '\n':
			return p.errorf("subsection not closed")
		case c == '"':
			if c, _ = p.next(); c != ']' {
				return p.errorf("a subsection header must end with \"]")
			}
			return p.setSection(section, sub.String(), true)
		case c == '\\':
			if c, ok = p.next(); !ok || c == '\n' {
				return p.errorf("subsection not closed")
			}
		}
		sub.WriteByte(c)
	}
}

func (p *gitConfigParser) setSection(name, sub string, quoted bool) error {
	if !quoted {
		name, sub, _ = strings.Cut(name, ".")
	}
	if name == "" || strings.Contains(name, ".") {
		return p.errorf("bad section name %q", name)
	}
	p.section, p.sub = name, sub
	return nil
}

// variable reads "key", "key = value" up to the end of its (continued) line.
func (p *gitConfigParser) variable() error {
	if p.section == "" {
		return p.errorf("a variable outside any section")
	}
	start := p.pos
	for p.pos < len(p.src) && isKeyChar(p.src[p.pos]) {
		p.pos++
	}
	e := GitConfigEntry{Section: p.section, Subsection: p.sub, Key: strings.ToLower(p.src[start:p.pos])}
	for p.pos < len(p.src) && isGitSpace(p.src[p.pos]) {
		p.pos++
	}
	c, ok := p.next()
	switch {
	case !ok || c == '\n':
		e.NoValue = true
	case c == '#' || c == ';':
		e.NoValue = true
		p.skipLine()
	case c == '=':
		v, err := p.value()
		if err != nil {
			return err
		}
		e.Value = v
	default:
		return p.errorf("bad character %q after %s", c, e.Key)
	}
	p.out = append(p.out, e)
	return nil
}

// value reads a value after its '=', as git does: unquoted runs of blanks become
// as many spaces and trailing ones go, a comment ends it outside quotes.
func (p *gitConfigParser) value() (string, error) {
	var b strings.Builder
	quoted, comment := false, false
	spaces := 0
	for {
		c, ok := p.next()
		if !ok || c == '\n' {
			if quoted {
				return "", p.errorf("quote not closed")
			}
			return b.String(), nil
		}
		if comment {
			continue
		}
		if isGitSpace(c) && !quoted {
			if b.Len() > 0 {
				spaces++
			}
			continue
		}
		if !quoted && (c == '#' || c == ';') {
			comment = true
			continue
		}
		for ; spaces > 0; spaces-- {
			b.WriteByte(' ')
		}
		switch c {
		case '\\':
			c, ok = p.next()
			switch c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				if !ok {
					return "", p.errorf("a value ends with a lone backslash")
				}
				return "", p.errorf("bad escape \\%c", c)
			}
			b.WriteByte(c)
		case '"':
			quoted = !quoted
		default:
			b.WriteByte(c)
		}
	}
}

func isGitSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' }
func isAlpha(c byte) bool    { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isKeyChar(c byte) bool  { return isAlpha(c) || c >= '0' && c <= '9' || c == '-' }

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
