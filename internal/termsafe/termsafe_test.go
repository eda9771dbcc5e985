package termsafe

import "testing"

func TestPrintable(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain\ttext\n":                               "plain\ttext\n",
		"a\x1b]52;c;ZXZpbA==\x07b":                    "ab",
		"\x1b[2J\x1b[31mred\x1b[0m":                   "red",
		"line\r\nnext\rover":                          "line\nnextover",
		"c1\u009b31m and del\x7f":                     "c131m and del",
		"é ü 日本":                                      "é ü 日本",
		"\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\": "link",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}
