package structured

import (
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer renders the library's messages; English, as the prompts are.
var printer = message.NewPrinter(language.English)

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

// problemsOf flattens a validation error to its leaves: the wrappers ("allOf
// failed", "$ref failed") say nothing an agent can act on.
func problemsOf(ve *jsonschema.ValidationError) []Problem {
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(out) > maxProblems {
			return
		}
		if len(e.Causes) == 0 {
			out = append(out, Problem{Path: pointer(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(printer)})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(out) > maxProblems {
		out = append(out[:maxProblems], Problem{Message: "and more"})
	}
	return out
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
