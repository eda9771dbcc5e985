package structured

import "strings"

// scanBudget bounds the bytes the bracket scanner reads for one answer. An
// unclosed bracket makes it read to the end of the text before trying the next
// one, so a text of n brackets could cost n² reads; judgement: 16 passes over the
// text, plus 1 MiB, is far above what real answers need (one or two passes).
func scanBudget(n int) int { return 16*n + 1<<20 }

// brackets returns the spans [start, end) of the balanced top-level objects and
// arrays in text, in order. Quotes only count inside brackets: prose outside may
// hold an odd number of them. A bracket that never closes is skipped and the scan
// resumes after it.
func (x *extraction) brackets(text string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(text) && x.budget > 0; {
		start := strings.IndexAny(text[i:], "{[")
		if start < 0 {
			break
		}
		start += i
		end, ok := x.close(text, start)
		if !ok {
			i = start + 1
			continue
		}
		spans = append(spans, [2]int{start, end})
		i = end
	}
	return spans
}

// close finds the end of the bracket opened at text[start], skipping brackets
// inside JSON strings. It fails on a mismatched or missing closing bracket.
func (x *extraction) close(text string, start int) (int, bool) {
	var stack []byte
	inString, escaped := false, false
	for i := start; i < len(text); i++ {
		x.budget--
		if x.budget <= 0 {
			return 0, false
		}
		c := text[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{':
			stack = append(stack, '}')
		case c == '[':
			stack = append(stack, ']')
		case c == '}' || c == ']':
			if stack[len(stack)-1] != c {
				return 0, false
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// fencedBlocks returns the contents of the Markdown code blocks in text, in order.
// A fence is a line of three or more backticks or tildes (after up to three spaces),
// closed by a line of the same character at least as long; a block left open runs
// to the end of the text, as when an agent forgets the closing fence. A one-line
// block (```{"a":1}```) is left to the bracket scan.
func fencedBlocks(text string) []string {
	var blocks []string
	lines := strings.SplitAfter(text, "\n")
	for i := 0; i < len(lines); i++ {
		char, n, ok := fenceOpen(lines[i])
		if !ok {
			continue
		}
		var body strings.Builder
		j := i + 1
		for ; j < len(lines); j++ {
			if fenceCloses(lines[j], char, n) {
				break
			}
			body.WriteString(lines[j])
		}
		blocks = append(blocks, body.String())
		i = j
	}
	return blocks
}

func fenceOpen(line string) (char byte, n int, ok bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0, false
	}
	char = t[0]
	for n < len(t) && t[n] == char {
		n++
	}
	if n < 3 || (char == '`' && strings.ContainsRune(t[n:], '`')) {
		return 0, 0, false
	}
	return char, n, true
}

func fenceCloses(line string, char byte, n int) bool {
	t := strings.TrimSpace(line)
	if len(t) < n || len(line)-len(strings.TrimLeft(line, " ")) > 3 {
		return false
	}
	return strings.Trim(t, string(char)) == ""
}

// repair removes what JSON-like answers often carry but JSON forbids: // and /* */
// comments, and commas before a closing bracket. Strings are left alone. It
// reports whether anything changed.
func repair(c string) (string, bool) {
	var b strings.Builder
	inString, escaped, changed := false, false, false
	for i := 0; i < len(c); i++ {
		ch := c[i]
		if inString {
			b.WriteByte(ch)
			switch {
			case escaped:
				escaped = false
			case ch == '\\':
				escaped = true
			case ch == '"':
				inString = false
			}
			continue
		}
		switch {
		case ch == '"':
			inString = true
			b.WriteByte(ch)
		case ch == '/' && i+1 < len(c) && c[i+1] == '/':
			end := strings.IndexByte(c[i:], '\n')
			if end < 0 {
				end = len(c) - i
			}
			i += end - 1
			changed = true
		case ch == '/' && i+1 < len(c) && c[i+1] == '*':
			end := strings.Index(c[i+2:], "*/")
			if end < 0 {
				return c, false
			}
			i += end + 3
			changed = true
		case ch == ',':
			rest := strings.TrimLeft(c[i+1:], " \t\r\n")
			if rest != "" && (rest[0] == '}' || rest[0] == ']') {
				changed = true
				continue
			}
			b.WriteByte(ch)
		default:
			b.WriteByte(ch)
		}
	}
	return b.String(), changed
}
