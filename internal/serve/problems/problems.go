// Package problems reports what is wrong with the input serve is given (its
// variables and flags, the cron and Telegram files), every problem at once, each
// where the user wrote it.
package problems

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with an input: where it is, the part at fault, and
// what to do.
type Problem struct {
	// Where is the file, or the variable or flag, holding the value at fault.
	Where string
	// Line is the line in the file; 0 when the problem has none.
	Line int
	// Key names the part of Where at fault in the words of its format, such as
	// `chats.-1001.allowed_users` or `job "report": key "timeout"`; empty for
	// Where as a whole.
	Key     string
	Message string
}

// Error writes where:line: key: message, leaving out what is not known.
func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.Where)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Key != "" {
		b.WriteString(p.Key + ": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// List is every problem of an input, reported at once, one per line.
type List []Problem

func (l List) Error() string { return l.lines("") }

func (l List) lines(indent string) string {
	lines := make([]string, len(l))
	for i, p := range l {
		lines[i] = indent + p.Error()
	}
	return strings.Join(lines, "\n")
}

// Titled is l under a heading that counts them, each problem indented below it;
// errors.As still finds the List.
func (l List) Titled(subject string) error { return titled{subject, l} }

type titled struct {
	subject string
	list    List
}

func (t titled) Error() string {
	return fmt.Sprintf("%s has %d problem(s):\n%s", t.subject, len(t.list), t.list.lines("  "))
}

func (t titled) Unwrap() error { return t.list }
