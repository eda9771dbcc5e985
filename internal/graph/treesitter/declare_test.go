package treesitter

import "testing"

// TestTypedefOfNamedStruct: the struct a typedef defines is the file's, not the
// typedef's; a typedef the struct's own definition follows gives way to it.
func TestTypedefOfNamedStruct(t *testing.T) {
	t.Parallel()
	expectFacts(t, "a.c", "c", "typedef struct S { int x; } S_t;\ntypedef struct S2 S2;\nstruct S2 { int y; };\n", []string{
		`node file a.c 1:0-4`,
		`node type_alias a.c::S_t 1:29-1 sig="typedef struct S { int x; } S_t" exported`,
		`node struct a.c::S 1:16-1 sig="struct S" exported`,
		`node field a.c::S::x 1:24-1 sig="int x" exported`,
		`node struct a.c::S2 3:8-3 sig="struct S2" exported`,
		`node field a.c::S2::y 3:17-3 sig="int y" exported`,
		`edge contains a.c -> a.c::S_t 1 name @1`,
		`edge contains a.c -> a.c::S 1 name @1`,
		`edge contains a.c::S -> a.c::S::x 1 name @1`,
		`edge contains a.c -> a.c::S2 1 name @3`,
		`edge contains a.c::S2 -> a.c::S2::y 1 name @3`,
	})
}

// TestRustImplOfTypeDefinedElsewhere: an impl's items are its type's even when
// the type is in another file; the file contains them, and the implements edge
// leaves from the type's name in this file for the cross-file pass.
func TestRustImplOfTypeDefinedElsewhere(t *testing.T) {
	t.Parallel()
	expectFacts(t, "src/show.rs", "rust", `impl fmt::Display for Remote {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { self.show(f) }
}
`, []string{
		`node file src/show.rs 1:0-4`,
		`node method src/show.rs::Remote::fmt 2:8-2 sig="fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result" exported`,
		`edge contains src/show.rs -> src/show.rs::Remote::fmt 1 name @2`,
		`unresolved implements src/show.rs::Remote -> fmt::Display @1:6`,
		`unresolved calls src/show.rs::Remote::fmt -> self.show @2:60`,
	})
}

// TestCppOutOfClassMethodReachesItsClass: in `int A::f()`, `g()` and `this->g()`
// are A's g.
func TestCppOutOfClassMethodReachesItsClass(t *testing.T) {
	t.Parallel()
	expectFacts(t, "a.cpp", "cpp", "struct A { int f(); int g(); };\nint A::f() { return g() + this->g(); }\n", []string{
		`node file a.cpp 1:0-3`,
		`node struct a.cpp::A 1:8-1 sig="struct A" exported`,
		`node method a.cpp::A::f 2:8-2 sig="int A::f()" exported`,
		`node method a.cpp::A::g 1:25-1 sig="int g()" exported`,
		`edge contains a.cpp -> a.cpp::A 1 name @1`,
		`edge contains a.cpp::A -> a.cpp::A::f 1 name @2`,
		`edge contains a.cpp::A -> a.cpp::A::g 1 name @1`,
		`edge calls a.cpp::A::f -> a.cpp::A::g 0.9 name @2`,
		`edge calls a.cpp::A::f -> a.cpp::A::g 0.9 name @2`,
	})
}

func TestSplitCallee(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, recv, rest, sep string }{
		{"f", "f", "", ""},
		{"a.b.c", "a", "b.c", "."},
		{"Self::new", "Self", "new", "::"},
		{"std::mem::drop", "std", "mem::drop", "::"},
		{"a.b::c", "a", "b::c", "."},
		{"A::b.c", "A", "b.c", "::"},
		{"<expr>.then", "<expr>", "then", "."},
	} {
		recv, rest, sep := splitCallee(c.name)
		if recv != c.recv || rest != c.rest || sep != c.sep {
			t.Errorf("splitCallee(%q) = %q, %q, %q; want %q, %q, %q", c.name, recv, rest, sep, c.recv, c.rest, c.sep)
		}
	}
}
