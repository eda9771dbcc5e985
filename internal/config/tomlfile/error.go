package tomlfile

import (
	"fmt"
	"strings"
)

// Error is a problem with one value of one file (or another named source such as an
// environment variable). Its message reads "where: key: what", the shape compilers use,
// so editors and terminals turn it into a link.
type Error struct {
	// Where names the source: a file path, or "env NAME".
	Where string
	// Line and Column are 1-based; 0 when unknown (environment variables).
	Line, Column int
	// Key is the dotted key at fault, empty for syntax errors.
	Key string
	// Msg says what is wrong.
	Msg string
	// Suggestion is the closest valid key or value, if one is close enough.
	Suggestion string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Where)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Suggestion != "" {
		fmt.Fprintf(&b, " (did you mean %q?)", e.Suggestion)
	}
	return b.String()
}

// Suggest returns the candidate closest to got, or "" when none is close enough to be
// a plausible typo. The bound (a third of the word, at least 1, at most 3 edits) is a
// judgement: it catches "permision" and "modle" without proposing "agent" for "model".
func Suggest(got string, candidates []string) string {
	best, bestDist := "", -1
	limit := min(max(len(got)/3, 1), 3)
	for _, c := range candidates {
		d := Distance(strings.ToLower(got), strings.ToLower(c))
		if d <= limit && (bestDist < 0 || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// Distance is the Levenshtein edit distance, with a transposition counted as one edit
// (the commonest typo).
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
