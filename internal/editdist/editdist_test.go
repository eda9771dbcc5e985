package editdist

import "testing"

func TestDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "abc", 0}, {"abc", "abd", 1}, {"parseconfg", "parseconfig", 1}, {"", "abc", 3},
		{"kitten", "sitting", 3}, {"héllo", "hello", 1}, {"modle", "model", 1}, {"ab", "ba", 1},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d; want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
