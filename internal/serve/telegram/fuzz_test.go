package telegram

import (
	"errors"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/problems"
)

// FuzzParseSettings reads any bot file: it never panics, a file it accepts serves
// someone, and every problem names the file and the line, unless the file as a
// whole is at fault or the YAML library gave none.
func FuzzParseSettings(f *testing.F) {
	for _, s := range []string{
		"allowed_chats: [42, -1001234567890]\non_busy: reply\nqueue_limit: 2\nmax_upload: 5MiB\n",
		"allow_all: true\ndefault:\n  model: m\n  thinking: high\nchats:\n  -100:\n    allowed_users: [7]\n  99:\n",
		"allow_all: yes\n", "allowed_chats: []\n", "allowed_chats: [x, 1.5, 99999999999999999999]\n",
		"queue_limit: -1\nmax_upload: 5XB\non_busy: [a]\n", "chats: {a: 1}\n", "chats:\n  1: {workspace: ../x, bogus: 1}\n",
		"", "- 1\n", "\x00", "a: *b\n", "allow_all: true\nallow_all: false\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSettings("bot.yml", data)
		if err == nil {
			if !s.AllowAll && len(s.AllowedChats) == 0 && len(s.Chats) == 0 {
				t.Fatalf("accepted a bot that serves nobody: %+v", s)
			}
			return
		}
		var ps problems.List
		if !errors.As(err, &ps) || len(ps) == 0 {
			t.Fatalf("error %v (%T) is not a list of problems", err, err)
		}
		for _, p := range ps {
			if p.Where != "bot.yml" || p.Message == "" {
				t.Fatalf("problem %+v does not name the file or say what is wrong", p)
			}
			if p.Line <= 0 && !wholeFileProblem(p) {
				t.Fatalf("problem %q names no line", p.Error())
			}
		}
	})
}

// wholeFileProblem reports a problem about the file as a whole, which has no
// line of its own; a YAML syntax error carries its line in its message, when the
// library knows it.
func wholeFileProblem(p problems.Problem) bool {
	return strings.HasPrefix(p.Message, "not valid YAML: ") || strings.HasPrefix(p.Message, "want a mapping") ||
		strings.HasPrefix(p.Message, "no chat is allowed")
}
