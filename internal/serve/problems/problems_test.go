package problems

import (
	"errors"
	"testing"
)

func TestProblemSaysWhereAndWhat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p    Problem
		want string
	}{
		{Problem{Where: "ALBERT_CODE_API_MODE_PORT", Message: `"80a": not a port`}, `ALBERT_CODE_API_MODE_PORT: "80a": not a port`},
		{Problem{Where: "bot.yml", Line: 4, Key: "chats.-1001.allowed_users", Message: "want a list"}, "bot.yml:4: chats.-1001.allowed_users: want a list"},
		{Problem{Where: "jobs.yml", Line: 9, Key: `job "nightly": key "schedule"`, Message: "never fires"}, `jobs.yml:9: job "nightly": key "schedule": never fires`},
		{Problem{Where: "jobs.yml", Message: "the file is empty"}, "jobs.yml: the file is empty"},
	}
	for _, tt := range tests {
		if got := tt.p.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestListIsOneProblemPerLine(t *testing.T) {
	t.Parallel()
	l := List{{Where: "a.yml", Line: 1, Message: "x"}, {Where: "a.yml", Line: 2, Message: "y"}}
	if got, want := l.Error(), "a.yml:1: x\na.yml:2: y"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	err := l.Titled("serve configuration")
	if got, want := err.Error(), "serve configuration has 2 problem(s):\n  a.yml:1: x\n  a.yml:2: y"; got != want {
		t.Errorf("Titled = %q, want %q", got, want)
	}
	var found List
	if !errors.As(err, &found) || len(found) != 2 {
		t.Errorf("errors.As found %v in the titled list", found)
	}
}
