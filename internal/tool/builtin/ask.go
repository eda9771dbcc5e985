package builtin

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/etalab-ia/albert-code/internal/tool"
)

//go:embed ask_user_question.md
var askDescription string

// Bounds of a question set, from the original's schema: more questions or options
// than this stop being a quick choice and become a form.
const (
	maxQuestions   = 4
	minOptions     = 2
	maxOptions     = 4
	maxHeaderRunes = 12
)

// Question is one multiple-choice question for the user. Faces add a free-text
// "Other" choice themselves.
type Question struct {
	Question    string   `json:"question" jsonschema:"the full question, ending with a question mark"`
	Header      string   `json:"header" jsonschema:"a very short label for the question (at most 12 characters), e.g. Database"`
	Options     []Option `json:"options" jsonschema:"two to four distinct choices"`
	MultiSelect bool     `json:"multi_select,omitempty" jsonschema:"allow choosing several options"`
}

// Option is one choice of a Question.
type Option struct {
	Label       string `json:"label" jsonschema:"the choice, in one to five words"`
	Description string `json:"description" jsonschema:"what choosing it means or implies"`
}

// Answer is the user's reply to one Question.
type Answer struct {
	// Selected are the labels of the chosen options.
	Selected []string
	// Other is what the user typed in their own words, if anything.
	Other string
}

// Asker puts questions to the user and waits for the answers, one Answer per
// Question in order. The TUI shows a dialog; ACP and serve faces relay the request.
// Ask returns ErrDeclined when the user dismisses the questions.
type Asker interface {
	Ask(ctx context.Context, questions []Question) ([]Answer, error)
}

// ErrDeclined is returned by an Asker when the user chose not to answer.
var ErrDeclined = errors.New("the user declined to answer")

// AskParams are the arguments of the ask_user_question tool.
type AskParams struct {
	Questions []Question `json:"questions" jsonschema:"one to four questions asked together"`
}

// AskUserQuestion asks the user multiple-choice questions through asker. A nil asker
// means no one is there (headless runs): the model is told to decide for itself.
func AskUserQuestion(asker Asker) tool.Tool {
	return tool.New(tool.Def[AskParams]{
		Info: tool.Info{
			Name: "ask_user_question", Description: askDescription, ReadOnly: true, Kind: tool.KindOther,
			Schema: schemaFor[AskParams](func(s schemaNode) {
				qs := s.Prop("questions")
				qs["minItems"], qs["maxItems"] = 1, maxQuestions
				qs.Items().Prop("header")["maxLength"] = maxHeaderRunes
				opts := qs.Items().Prop("options")
				opts["minItems"], opts["maxItems"] = minOptions, maxOptions
			}),
		},
		Run: func(ctx context.Context, call tool.Call, p AskParams) (tool.Result, error) {
			if asker == nil {
				return tool.Errorf("no one can answer questions in this mode; decide yourself and say what you assumed"), nil
			}
			if msg := checkQuestions(p.Questions); msg != "" {
				return tool.Errorf("%s", msg), nil
			}
			answers, err := asker.Ask(ctx, p.Questions)
			switch {
			case errors.Is(err, ErrDeclined):
				return tool.Errorf("the user declined to answer; ask in plain text if you must, or decide yourself and say what you assumed"), nil
			case err != nil:
				return tool.Result{}, fmt.Errorf("ask user: %w", err)
			case len(answers) != len(p.Questions):
				return tool.Result{}, fmt.Errorf("ask user: %d answers for %d questions", len(answers), len(p.Questions))
			}
			return tool.Result{Output: renderAnswers(p.Questions, answers), Display: answers}, nil
		},
	})
}

func checkQuestions(qs []Question) string {
	if len(qs) < 1 || len(qs) > maxQuestions {
		return fmt.Sprintf("ask 1 to %d questions at a time, not %d", maxQuestions, len(qs))
	}
	for i, q := range qs {
		switch {
		case strings.TrimSpace(q.Question) == "":
			return fmt.Sprintf("question %d is empty", i+1)
		case utf8.RuneCountInString(q.Header) > maxHeaderRunes || strings.TrimSpace(q.Header) == "":
			return fmt.Sprintf("question %d: header %q must be 1 to %d characters", i+1, q.Header, maxHeaderRunes)
		case len(q.Options) < minOptions || len(q.Options) > maxOptions:
			return fmt.Sprintf("question %d has %d options; give %d to %d", i+1, len(q.Options), minOptions, maxOptions)
		}
		labels := map[string]bool{}
		for _, o := range q.Options {
			if strings.TrimSpace(o.Label) == "" || labels[o.Label] {
				return fmt.Sprintf("question %d: option labels must be present and distinct", i+1)
			}
			labels[o.Label] = true
		}
	}
	return ""
}

func renderAnswers(qs []Question, as []Answer) string {
	var sb strings.Builder
	sb.WriteString("The user answered:\n")
	for i, q := range qs {
		fmt.Fprintf(&sb, "%d. %s\n", i+1, q.Question)
		a := as[i]
		if len(a.Selected) > 0 {
			fmt.Fprintf(&sb, "   chose: %s\n", strings.Join(a.Selected, ", "))
		}
		if a.Other != "" {
			fmt.Fprintf(&sb, "   in their own words: %s\n", a.Other)
		}
		if len(a.Selected) == 0 && a.Other == "" {
			sb.WriteString("   (no answer)\n")
		}
	}
	return sb.String()
}
