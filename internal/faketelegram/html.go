package faketelegram

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// allowedTags are the tags of the Bot API's HTML parse mode
// (core.telegram.org/bots/api#html-style); every other tag is refused.
var allowedTags = map[string]bool{
	"b": true, "strong": true, "i": true, "em": true, "u": true, "ins": true,
	"s": true, "strike": true, "del": true, "span": true, "tg-spoiler": true,
	"a": true, "tg-emoji": true, "code": true, "pre": true, "blockquote": true,
}

// namedEntities are the only named character references Telegram decodes.
var namedEntities = map[string]rune{"lt": '<', "gt": '>', "amp": '&', "quot": '"'}

// parseHTML returns the text a user sees for an HTML-formatted message, or
// the reason Telegram refuses it, in Telegram's words (after "can't parse
// entities: "). It is written from the Bot API's documentation, independently
// of the renderer it judges. Like Telegram, it keeps a lone '&' or an unknown
// named entity as text.
func parseHTML(s string) (plain, refusal string) {
	if !utf8.ValidString(s) {
		return "", "Strings must be encoded in UTF-8"
	}
	var out strings.Builder
	var open []string
	for i := 0; i < len(s); {
		switch s[i] {
		case '<':
			end := strings.IndexByte(s[i:], '>')
			if strings.HasPrefix(s[i:], "</") {
				if end < 0 {
					return "", fmt.Sprintf("Unclosed end tag at byte offset %d", i)
				}
				name := strings.ToLower(strings.TrimSpace(s[i+2 : i+end]))
				if len(open) == 0 {
					return "", fmt.Sprintf("Unexpected end tag at byte offset %d", i)
				}
				if top := open[len(open)-1]; name != top {
					return "", fmt.Sprintf("Unmatched end tag at byte offset %d, expected \"</%s>\", found \"</%s>\"", i, top, name)
				}
				open = open[:len(open)-1]
				i += end + 1
				continue
			}
			name, attrs, refusal := parseStartTag(s, i)
			if refusal == "" {
				refusal = checkTag(name, attrs, open, i)
			}
			if refusal != "" {
				return "", refusal
			}
			open = append(open, name)
			i += end + 1
		case '&':
			r, n := decodeEntity(s[i:])
			if n == 0 {
				out.WriteByte('&')
				i++
				continue
			}
			out.WriteRune(r)
			i += n
		default:
			out.WriteByte(s[i])
			i++
		}
	}
	if len(open) > 0 {
		return "", fmt.Sprintf("Can't find end tag corresponding to start tag \"%s\"", open[len(open)-1])
	}
	return out.String(), ""
}

// parseStartTag reads the tag at s[at] ('<'): its lower-case name and
// attributes.
func parseStartTag(s string, at int) (name string, attrs map[string]string, refusal string) {
	i := at + 1
	start := i
	for i < len(s) && (isASCIIAlnum(s[i]) || s[i] == '-') {
		i++
	}
	name = strings.ToLower(s[start:i])
	if i == len(s) {
		return "", nil, fmt.Sprintf("Unclosed start tag at byte offset %d", at)
	}
	if name == "" || !allowedTags[name] {
		return "", nil, fmt.Sprintf("Unsupported start tag \"%s\" at byte offset %d", name, at)
	}
	attrs = map[string]string{}
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++
		}
		if i == len(s) {
			return "", nil, fmt.Sprintf("Unclosed start tag at byte offset %d", at)
		}
		if s[i] == '>' {
			return name, attrs, ""
		}
		start := i
		for i < len(s) && (isASCIIAlnum(s[i]) || s[i] == '-' || s[i] == '_') {
			i++
		}
		attr := strings.ToLower(s[start:i])
		if attr == "" {
			return "", nil, fmt.Sprintf("Empty attribute name in the tag \"%s\" at byte offset %d", name, at)
		}
		if i < len(s) && s[i] == '=' {
			i++
			if i == len(s) {
				return "", nil, fmt.Sprintf("Unclosed start tag at byte offset %d", at)
			}
			var value string
			if q := s[i]; q == '"' || q == '\'' {
				close := strings.IndexByte(s[i+1:], q)
				if close < 0 {
					return "", nil, fmt.Sprintf("Unclosed start tag at byte offset %d", at)
				}
				value = s[i+1 : i+1+close]
				i += close + 2
			} else {
				start := i
				for i < len(s) && s[i] != ' ' && s[i] != '>' {
					i++
				}
				value = s[start:i]
			}
			attrs[attr] = value
		} else {
			attrs[attr] = ""
		}
	}
}

func checkTag(name string, attrs map[string]string, open []string, at int) (refusal string) {
	switch name {
	case "span":
		if attrs["class"] != "tg-spoiler" {
			return fmt.Sprintf("Tag \"span\" must have class \"tg-spoiler\" at byte offset %d", at)
		}
	case "tg-emoji":
		if _, err := strconv.ParseInt(attrs["emoji-id"], 10, 64); err != nil {
			return "Invalid custom emoji identifier specified"
		}
	case "a":
		if href := attrs["href"]; href != "" && strings.ContainsAny(href, " \n") {
			return "Wrong HTTP URL"
		}
	}
	if len(open) > 0 {
		if top := open[len(open)-1]; top == "code" || (top == "pre" && name != "code") {
			// Telegram drops entities nested in code; refusing them keeps the
			// judge strict where the user would silently lose formatting.
			return fmt.Sprintf("Tag \"%s\" inside \"%s\" at byte offset %d is not rendered", name, top, at)
		}
	}
	return ""
}

// decodeEntity decodes the character reference at the start of s, returning
// the rune and its length, or 0 when s does not start with one Telegram knows.
func decodeEntity(s string) (rune, int) {
	semi := strings.IndexByte(s, ';')
	if semi < 2 || semi > 10 {
		return 0, 0
	}
	body := s[1:semi]
	if r, ok := namedEntities[body]; ok {
		return r, semi + 1
	}
	if body[0] != '#' {
		return 0, 0
	}
	var n uint64
	var err error
	if len(body) > 1 && (body[1] == 'x' || body[1] == 'X') {
		n, err = strconv.ParseUint(body[2:], 16, 32)
	} else {
		n, err = strconv.ParseUint(body[1:], 10, 32)
	}
	if err != nil || n == 0 || n > utf8.MaxRune {
		return 0, 0
	}
	return rune(n), semi + 1
}

func isASCIIAlnum(b byte) bool {
	return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

// utf16Len is a text's length as Telegram counts it.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
