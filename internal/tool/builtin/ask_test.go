package builtin

import (
	"context"
	"errors"
	"strings"
	"testing"
)

type fakeAsker struct {
	got     []Question
	answers []Answer
	err     error
}

func (f *fakeAsker) Ask(ctx context.Context, qs []Question) ([]Answer, error) {
	f.got = qs
	return f.answers, f.err
}

func oneQuestion(header string, options int) AskParams {
	q := Question{Question: "Which database?", Header: header}
	for i := range options {
		q.Options = append(q.Options, Option{Label: string(rune('A' + i)), Description: "option"})
	}
	return AskParams{Questions: []Question{q}}
}

func TestAskUserQuestion(t *testing.T) {
	t.Parallel()
	t.Run("headless", func(t *testing.T) {
		t.Parallel()
		wantError(t, run(t, AskUserQuestion(nil), oneQuestion("DB", 2)),
			"no one can answer questions in this mode; decide yourself and say what you assumed")
	})
	t.Run("answered", func(t *testing.T) {
		t.Parallel()
		asker := &fakeAsker{answers: []Answer{{Selected: []string{"B"}, Other: "and a cache"}}}
		res := run(t, AskUserQuestion(asker), oneQuestion("Database", 3))
		wantOK(t, res)
		want := "The user answered:\n1. Which database?\n   chose: B\n   in their own words: and a cache\n"
		if res.Output != want {
			t.Errorf("output = %q, want %q", res.Output, want)
		}
		if len(asker.got) != 1 || asker.got[0].Header != "Database" || len(asker.got[0].Options) != 3 {
			t.Errorf("asker got %+v", asker.got)
		}
	})
	t.Run("declined", func(t *testing.T) {
		t.Parallel()
		wantError(t, run(t, AskUserQuestion(&fakeAsker{err: ErrDeclined}), oneQuestion("DB", 2)), "declined")
	})
	t.Run("asker failure is infrastructure", func(t *testing.T) {
		t.Parallel()
		_, err := AskUserQuestion(&fakeAsker{err: errors.New("face gone")}).Run(context.Background(), callWith(t, oneQuestion("DB", 2)))
		if err == nil || !strings.Contains(err.Error(), "face gone") {
			t.Errorf("err = %v", err)
		}
	})
	for name, tc := range map[string]struct {
		p    AskParams
		want string
	}{
		"header too long": {oneQuestion("Thirteen char", 2), "header \"Thirteen char\" must be 1 to 12 characters"},
		"one option":      {oneQuestion("DB", 1), "has 1 options; give 2 to 4"},
		"five options":    {oneQuestion("DB", 5), "has 5 options"},
		"no questions":    {AskParams{Questions: []Question{}}, "ask 1 to 4 questions"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			asker := &fakeAsker{}
			wantError(t, run(t, AskUserQuestion(asker), tc.p), tc.want)
			if asker.got != nil {
				t.Error("invalid questions reached the user")
			}
		})
	}
}

func TestAskSchemaCarriesBounds(t *testing.T) {
	t.Parallel()
	schema := string(AskUserQuestion(nil).Info().Schema)
	for _, want := range []string{`"maxItems":4`, `"minItems":1`, `"maxLength":12`, `"minItems":2`} {
		if !strings.Contains(schema, want) {
			t.Errorf("schema lacks %s: %s", want, schema)
		}
	}
}
