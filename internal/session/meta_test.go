package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/etalab-ia/albert-code/internal/llm"
)

func TestTitle(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("mot ", 30) // 120 characters of four-letter words
	tests := []struct {
		name, in, want string
	}{
		{"short kept", "Fix the build", "Fix the build"},
		{"whitespace collapsed", "  Fix\n\tthe   build \n", "Fix the build"},
		{"exactly 60 kept", strings.Repeat("a", 60), strings.Repeat("a", 60)},
		{"cut at word boundary", long, strings.TrimSpace(long[:56]) + "…"},
		{"no space: hard cut", strings.Repeat("x", 100), strings.Repeat("x", 59) + "…"},
		{"runes not bytes", strings.Repeat("é", 61), strings.Repeat("é", 59) + "…"},
		{"empty", " \n ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Title(tt.in)
			if got != tt.want {
				t.Errorf("Title(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if n := utf8.RuneCountInString(got); n > titleRunes {
				t.Errorf("Title has %d characters, more than %d", n, titleRunes)
			}
		})
	}
}

func TestEmptyMetaIsRebuiltFromTheLog(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	l := mustCreate(t, s, Meta{Cwd: "/w", Title: "first question"})
	u := llm.Usage{InputTokens: 40, OutputTokens: 2}
	if err := l.Append(user("first question"), llm.Message{Role: llm.RoleAssistant, Content: "a", Usage: &u}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// What a machine crash can leave of a renamed, never-fsynced file.
	if err := os.WriteFile(filepath.Join(l.Dir(), metaFile), make([]byte, 64), 0o600); err != nil {
		t.Fatal(err)
	}
	l2, msgs := mustOpen(t, s, l.ID())
	defer l2.Close()
	m := l2.Meta()
	if len(msgs) != 2 || m.Title != "first question" || m.Usage.InputTokens != 40 || m.MessageCount != 2 {
		t.Fatalf("rebuilt meta %+v from %d messages", m, len(msgs))
	}
	if w := strings.Join(l2.Warnings(), "\n"); !strings.Contains(w, "rebuilt from the log") {
		t.Fatalf("warnings = %q", w)
	}
	if list, err := s.List(Filter{SubAgents: true}); err != nil || len(list) != 1 {
		t.Fatalf("List after rebuild = %v, %v", list, err)
	}
}
