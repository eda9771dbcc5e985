package mdterm

import "strings"

// style is a set of SGR attributes. Colours are 256-colour indexes, -1 for none;
// without colour (NO_COLOR) only bold, italics, underline and dim are kept.
type style struct {
	bold, italic, underline, dim, strike bool
	fg                                   int
}

var plain = style{fg: -1}

// The palette reads on dark and light backgrounds alike: mid-range colours only.
const (
	colHeading = 75  // blue
	colCode    = 173 // orange: inline code
	colLink    = 38  // cyan
	colQuote   = 245 // grey
	colKeyword = 170 // magenta
	colString  = 107 // green
	colNumber  = 179 // yellow
	colComment = 244 // grey
	colType    = 80  // teal
	colAdded   = 71  // green
	colRemoved = 167 // red
	colRule    = 240
)

// apply wraps s in st's escape sequences, ending with a reset.
func (st style) apply(s string, color bool) string {
	if s == "" {
		return ""
	}
	var codes []string
	if st.bold {
		codes = append(codes, "1")
	}
	if st.dim {
		codes = append(codes, "2")
	}
	if st.italic {
		codes = append(codes, "3")
	}
	if st.underline {
		codes = append(codes, "4")
	}
	if st.strike {
		codes = append(codes, "9")
	}
	if color && st.fg >= 0 {
		codes = append(codes, "38;5;"+itoa(st.fg))
	}
	if len(codes) == 0 {
		return s
	}
	return "\x1b[" + strings.Join(codes, ";") + "m" + s + "\x1b[0m"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [8]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

func fg(c int) style { return style{fg: c} }
