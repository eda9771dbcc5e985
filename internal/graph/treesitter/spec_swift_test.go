package treesitter

import "testing"

func TestSwiftSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	src := "class A {\n    func ok() {}\n    func broken() {\n        let x = = 3\n    }\n}\n\nfunc after() {\n    ok()\n}\n"
	expectPartial(t, "e.swift", "swift", src, "4", "e.swift::A", "e.swift::A::ok", "e.swift::after")
}

// TestSwiftGenericInitialiser: `Box<Int>(value: 1)` is a call of Box.
func TestSwiftGenericInitialiser(t *testing.T) {
	t.Parallel()
	expectFacts(t, "b.swift", "swift", "struct Box<T> { let value: T }\nlet b = Box<Int>(value: 1)\n", []string{
		`edge calls b.swift::b -> b.swift::Box 0.9 name @2`,
		`edge contains b.swift -> b.swift::Box 1 name @1`,
		`edge contains b.swift -> b.swift::b 1 name @2`,
		`edge contains b.swift::Box -> b.swift::Box::value 1 name @1`,
		`node constant b.swift::b 2:5-2 sig="let b = Box<Int>(value: 1)" exported`,
		`node field b.swift::Box::value 1:21-1 sig="let value: T" exported`,
		`node file b.swift 1:0-3`,
		`node struct b.swift::Box 1:8-1 sig="struct Box<T>" exported`,
	})
}
