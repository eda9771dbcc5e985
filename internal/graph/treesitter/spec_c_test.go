package treesitter

import "testing"

func TestCSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	expectPartial(t, "src/broken.c", "c", "int ok(void) { return 0; }\n\nint broken(void) { return ; ) }\n\nint after(void) { return ok(); }\n", "3",
		"src/broken.c::ok", "src/broken.c::after")
}
