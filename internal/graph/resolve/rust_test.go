package resolve_test

import "testing"

// TestRustAcrossFiles: `use crate::…` through module files (a.rs, a/mod.rs), a
// submodule named by a use (`deep::dive()` though util/mod.rs declares `mod
// deep;`), `super::` and `crate::` paths without a use, an associated function
// through its type; a receiver of unknown type (Rust receivers are not typed
// yet) is matched by name when one method has that name, and left ambiguous
// otherwise.
func TestRustAcrossFiles(t *testing.T) {
	t.Parallel()
	root, st := repo(t, "rust")
	index1(t, root, st)
	const run = "src/app.rs::run"
	expect(t, "callers of Client::new (use crate::net::Client)",
		related(t, st, "callers", "src/net.rs::Client::new"), run+"@6 [import]")
	expect(t, "callers of helper (use crate::util::{helper}; super::helper())",
		related(t, st, "callers", "src/util/mod.rs::helper"), run+"@8 [import]", "src/util/deep.rs::dive@2 [import]")
	expect(t, "callers of dive (deep::dive(), deep a module file)",
		related(t, st, "callers", "src/util/deep.rs::dive"), run+"@9 [import]")
	expect(t, "callers of top (crate::top())",
		related(t, st, "callers", "src/lib.rs::top"), "src/util/deep.rs::dive@3 [import]")
	expect(t, "callers of send (receiver not typed, the only method of that name)",
		related(t, st, "callers", "src/net.rs::Client::send"), run+"@7 [name]")
	expect(t, "callers of Client::close (c.close() is ambiguous)",
		related(t, st, "callers", "src/net.rs::Client::close"))
	lowerBound(t, st, run, "c.close")
}
