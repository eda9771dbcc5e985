package fakemodel

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplitRunes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    string
		n    int
		want []string
	}{
		{"abcdef", 3, []string{"ab", "cd", "ef"}},
		{"abcdefg", 3, []string{"ab", "cd", "efg"}},
		{"éàü", 2, []string{"é", "àü"}},
		{"ab", 4, []string{"", "a", "", "b"}},
		{"", 2, []string{"", ""}},
	}
	for _, tt := range tests {
		got := splitRunes(tt.s, tt.n)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != tt.n {
			t.Errorf("splitRunes(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
		for _, p := range got {
			if !utf8.ValidString(p) {
				t.Errorf("splitRunes(%q, %d) cut inside a rune: %q", tt.s, tt.n, p)
			}
		}
	}
}
