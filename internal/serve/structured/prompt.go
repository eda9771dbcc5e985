package structured

import (
	"strings"
	"unicode/utf8"
)

// previousAnswerLimit bounds how much of a rejected answer a fresh-session retry
// quotes back; judgement: enough to show the shape, not a second copy of a long one.
const previousAnswerLimit = 2000

// CorrectionInSession is the prompt of a retry in the session that gave a bad
// answer: the agent still has the task and its answer, so it gets only what was
// wrong, the rule and the schema. Minimal on purpose: on a long task it costs a
// hundredth of restating it.
func CorrectionInSession(perr *ParseError, s *Schema) string {
	var b strings.Builder
	b.WriteString("Your last reply was not valid JSON matching the required schema.\n")
	writeProblems(&b, perr)
	b.WriteString(jsonOnly)
	b.WriteString("\n\nSchema:\n")
	b.Write(s.JSON())
	return b.String()
}

// CorrectionFresh is the prompt of a retry in a new session, when the agent gave no
// session to go back to: it restates the task and quotes the rejected answer.
func CorrectionFresh(task, answer string, perr *ParseError, s *Schema) string {
	var b strings.Builder
	b.WriteString("A previous answer to the task below could not be used: it was not valid JSON matching the required schema. Do the task again and answer with JSON only.\n\nTask:\n")
	b.WriteString(task)
	b.WriteString("\n\nPrevious answer:\n")
	b.WriteString(truncate(answer, previousAnswerLimit))
	b.WriteString("\n\n")
	writeProblems(&b, perr)
	b.WriteString(jsonOnly)
	b.WriteString("\n\nSchema:\n")
	b.Write(s.JSON())
	return b.String()
}

const jsonOnly = "Reply with only the JSON value: no prose, no Markdown code fences, no comments."

func writeProblems(b *strings.Builder, perr *ParseError) {
	if perr.NotJSON {
		b.WriteString("It could not be read as JSON: " + perr.Detail + "\n")
		return
	}
	b.WriteString("Problems:\n")
	for _, p := range perr.Problems {
		b.WriteString("- " + p.String() + "\n")
	}
}

// truncate keeps the head of s, cut on a rune boundary, and says it was cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "\n[... cut]"
}
