package supervisor

import (
	"strings"
	"testing"
)

func TestCaptureKeepsHeadAndTail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		limit  int
		writes []string
		data   string
		cut    int64
	}{
		{"under the limit", 10, []string{"abc", "def"}, "abcdef", 0},
		{"exactly the limit", 4, []string{"ab", "cd"}, "abcd", 0},
		{"cut in the middle", 4, []string{"abcdefgh"}, "ab\n[albert-code: 4 bytes of stdout cut here]\ngh", 4},
		{"ring wraps over many writes", 6, []string{"abc", "def", "ghi", "jk", "l"}, "abc\n[albert-code: 6 bytes of stdout cut here]\njkl", 6},
		{"one-byte writes", 4, strings.Split("0123456789", ""), "01\n[albert-code: 6 bytes of stdout cut here]\n89", 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCapture("stdout", tc.limit)
			for _, w := range tc.writes {
				c.Write([]byte(w))
			}
			out := c.output()
			if string(out.Data) != tc.data || out.Cut != tc.cut {
				t.Errorf("got %q cut %d, want %q cut %d", out.Data, out.Cut, tc.data, tc.cut)
			}
		})
	}
}

func TestLineSplitter(t *testing.T) {
	t.Parallel()
	var got []string
	s := &lineSplitter{max: 5, onLine: func(l []byte) { got = append(got, string(l)) }}
	for _, chunk := range []string{"ab", "c\r\nde", "\n\n1234567", "89\nxy"} {
		s.Write([]byte(chunk))
	}
	s.flush()
	want := []string{"abc", "de", "", "12345", "xy"}
	if strings.Join(got, "|") != strings.Join(want, "|") || s.cut != 1 {
		t.Errorf("got %q cut %d, want %q cut 1", got, s.cut, want)
	}
}
