package treesitter

import "testing"

func TestRustSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	expectPartial(t, "src/broken.rs", "rust", "fn ok() {}\n\nfn broken() { let x = ; }\n\nstruct After { x: i32 }\n", "3",
		"src/broken.rs::ok", "src/broken.rs::broken", "src/broken.rs::After", "src/broken.rs::After::x")
}
