package session

import (
	"strings"
	"testing"
	"unicode/utf8"
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
