package treesitter

// tsRepair rewrites two TypeScript shapes tree-sitter-typescript v0.23.2 (the
// latest release, on the Go proxy and npm alike) does not parse, keeping every
// byte where it was, so lines, columns and names stay those of the file:
//
//   - a call or construct signature with type parameters starting a member line
//     after a member with no separator (mobx's IComputedFactory, immer's
//     IProduce): `<T>(fn: T): T` after `(name: string): T` is read as a
//     comparison and the interface is lost from there; a `;` written over the
//     line's first indentation byte ends the member before it;
//   - variance annotations on type parameters (`<out O, in out I>`, zod v4): the
//     words are blanked;
//   - a lone parameter named like a predefined type in a function type
//     (`(any) => void`, mobx): its first letter becomes `_`.
//
// Extract parses the rewritten source only when the file as written did not
// parse, and keeps it only when it parses with fewer errors.
func tsRepair(src []byte) []byte {
	out := append([]byte(nil), src...)
	last := byte(0) // the last significant byte: not a space, not in a comment
	lineStart := true
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			continue
		case c == ' ' || c == '\t' || c == '\r':
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i-- // the newline is read next
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := indexFrom(src, i+2, "*/")
			if end < 0 {
				return out
			}
			i = end + 1
			continue
		case c == '"' || c == '\'' || c == '`':
			i = skipQuoted(src, i)
		case c == '<' && lineStart && i > 0 && isBlank(src[i-1]) && startsIdent(src, i+1) && endsMember(last):
			if at := lineIndent(src, i); isBlank(out[at]) {
				out[at] = ';'
			}
		case last == '(' && predefinedParam(src, i):
			out[i] = '_' // `(any) => void`: a parameter named like a type, renamed in place
		case (c == 'i' || c == 'o') && (last == '<' || last == ',') && isVariance(src, i):
			for i < len(src) && isIdentByte(src[i]) {
				out[i] = ' '
				i++
			}
			i--
			lineStart = false
			continue // a blanked word is no significant byte
		}
		lineStart = false
		last = src[i]
	}
	return out
}

// predefinedParam reports whether src[i:] is a lone parameter named like a
// predefined type in a function type: `any) =>` (mobx's `injectMobx: (any) =>
// void`), which the grammar reads as a parenthesised type and fails at `=>`.
func predefinedParam(src []byte, i int) bool {
	j := i
	for j < len(src) && isIdentByte(src[j]) {
		j++
	}
	switch string(src[i:j]) {
	case "any", "unknown", "never", "string", "number", "boolean", "object", "symbol", "bigint":
	default:
		return false
	}
	for j < len(src) && isBlank(src[j]) {
		j++
	}
	if j >= len(src) || src[j] != ')' {
		return false
	}
	j++
	for j < len(src) && isBlank(src[j]) {
		j++
	}
	return j+1 < len(src) && src[j] == '=' && src[j+1] == '>'
}

// endsMember reports whether a member can end with the byte b: a name, a
// closing bracket, a string or number literal type.
func endsMember(b byte) bool {
	return isIdentByte(b) || b == ')' || b == ']' || b == '}' || b == '>' || b == '"' || b == '\''
}

// isVariance reports whether src[i:] starts with the word `in` or `out`
// followed by blanks and another word.
func isVariance(src []byte, i int) bool {
	j := i
	for j < len(src) && isIdentByte(src[j]) {
		j++
	}
	if w := string(src[i:j]); w != "in" && w != "out" {
		return false
	}
	k := j
	for k < len(src) && isBlank(src[k]) {
		k++
	}
	return k > j && startsIdent(src, k)
}

// lineIndent is the offset of the first byte of the line holding i; the
// caller checked that it is a blank.
func lineIndent(src []byte, i int) int {
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	return i
}

// skipQuoted returns the offset of the quote closing the literal opened at i
// (the last byte when unclosed). A template's `${…}` is skipped with it, which
// misreads only templates nested in templates.
func skipQuoted(src []byte, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j
		case '\n':
			if q != '`' {
				return j - 1 // an unclosed string ends with its line
			}
		}
	}
	return len(src) - 1
}

func indexFrom(src []byte, from int, s string) int {
	for j := from; j+len(s) <= len(src); j++ {
		if string(src[j:j+len(s)]) == s {
			return j
		}
	}
	return -1
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

func isIdentByte(b byte) bool {
	return b == '_' || b == '$' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

func startsIdent(src []byte, i int) bool {
	return i < len(src) && isIdentByte(src[i]) && (src[i] < '0' || src[i] > '9')
}
