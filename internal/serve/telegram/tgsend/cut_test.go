package tgsend

import (
	"strings"
	"testing"
	"unicode/utf16"
)

func TestCutUTF16KeepsEveryCharacterWithinTheLimit(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("word 😀 ", 3000) + strings.Repeat("x", 9000)
	pieces := cutUTF16(text, 4096)
	if strings.Join(pieces, "") != text {
		t.Fatal("pieces do not add up to the text")
	}
	for i, p := range pieces {
		if n := len(utf16.Encode([]rune(p))); n > 4096 || n == 0 {
			t.Errorf("piece %d has %d UTF-16 units", i, n)
		}
	}
	if !strings.HasSuffix(pieces[0], " ") {
		t.Errorf("first piece cut mid-word: ...%q", pieces[0][len(pieces[0])-10:])
	}
}
