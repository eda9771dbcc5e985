package treesitter

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// A bare call names the definition of the innermost scope that has one: a nested
// function shadows a module-level function of the same name, in the function
// that defines it and in the closures inside it, and only there.
func TestNestedFunctionsResolveByScope(t *testing.T) {
	t.Parallel()
	got := usesOf(t, "pkg/m.py", `
def helper():
    return 0


def outer1():
    def helper():
        return 1
    return helper()


def outer2():
    def helper():
        return 2

    def inner():
        return helper()
    return inner()


def outer3():
    return helper()
`)
	expectUses(t, got, []string{
		"edge calls pkg/m.py::outer1 -> pkg/m.py::outer1::helper 0.9 name @9",
		"edge calls pkg/m.py::outer2 -> pkg/m.py::outer2::inner 0.9 name @18",
		"edge calls pkg/m.py::outer2::inner -> pkg/m.py::outer2::helper 0.9 name @17",
		"edge calls pkg/m.py::outer3 -> pkg/m.py::helper 0.9 name @22",
	})

	ff, err := Extract(context.Background(), "src/m.ts", "typescript", []byte(`function helper(): number { return 0 }

export function outer1(): number {
  function helper(): number { return 1 }
  return helper()
}

export function outer2(): number {
  return helper()
}
`))
	if err != nil {
		t.Fatal(err)
	}
	calls := slices.DeleteFunc(render(ff), func(l string) bool {
		return !strings.HasPrefix(l, "edge calls ") && !strings.HasPrefix(l, "unresolved calls")
	})
	expectUses(t, calls, []string{
		"edge calls src/m.ts::outer1 -> src/m.ts::outer1::helper 0.9 name @5",
		"edge calls src/m.ts::outer2 -> src/m.ts::helper 0.9 name @9",
	})
}
