package structured

import (
	"fmt"
	"strings"
)

// maxProblems bounds the mismatches reported for one answer; judgement: past ten
// the agent gets the idea, and the corrective prompt stays short.
const maxProblems = 10

// Problem is one way an answer (or a schema) fails: where, as a JSON pointer into the
// value ("" for the whole value), and what.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	where := p.Path
	if where == "" {
		where = "/"
	}
	return fmt.Sprintf("at %s: %s", where, p.Message)
}

// capProblems keeps the first maxProblems problems and says when there were more.
func capProblems(ps []Problem) []Problem {
	if len(ps) > maxProblems {
		ps = append(ps[:maxProblems:maxProblems], Problem{Message: "and more"})
	}
	return ps
}

func joinProblems(ps []Problem) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, "; ")
}

// pointer writes a JSON pointer (RFC 6901) from its unescaped tokens.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}
