package tomlfile

import (
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/editdist"
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
	// Hint says what to do instead, in a sentence.
	Hint string
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
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
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

// Distance is editdist.Distance, kept here for the configuration's callers.
func Distance(a, b string) int { return editdist.Distance(a, b) }
