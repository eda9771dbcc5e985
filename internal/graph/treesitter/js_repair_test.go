package treesitter

import (
	"context"
	"testing"
)

// The shapes tree-sitter-typescript v0.23.2 does not parse are read through
// tsRepair: generic call signatures after a member without a separator (mobx's
// IComputedFactory, immer's IProduce), type parameters one per line, and
// variance annotations (zod v4), a parameter named `any` in a function type
// (mobx). The file parses whole, and every definition and
// call keeps the line and column it has in the file as written.
func TestTypeScriptGenericCallSignatures(t *testing.T) {
	t.Parallel()
	got := tsFacts(t, "src/factory.ts", `export interface IFactory {
    // nameless
    <T extends Function | undefined>(fn: T): T
    // named
    <T>(
        a: T,
        b: string
    ): T
    <T,
     U>(x: T): U
    (customName: string): Map<
        string,
        number
    >
    <K, V>(entries?: [K, V][]): Map<K, V>
    name: string
}

export interface Internals<out O = unknown, in out I = unknown> {
    output: O
}
declare const __HOOK__: { inject: (any) => void }

export function make(): number {
    return helper(1)
}

function helper(x: number): number {
    return x
}
`, "node function", "node interface", "node field", "edge calls")
	expectLines(t, got, []string{
		`node interface src/factory.ts::IFactory 1:18-17 sig="interface IFactory" exported`,
		`node field src/factory.ts::IFactory::name 16:5-16 sig="name: string" exported`,
		// The signature is read from the rewrite: the variance words are blanked.
		`node interface src/factory.ts::Internals 19:18-21 sig="interface Internals< O = unknown, I = unknown>" exported`,
		`node field src/factory.ts::Internals::output 20:5-20 sig="output: O" exported`,
		`node function src/factory.ts::make 24:17-26 sig="function make(): number" exported`,
		`node function src/factory.ts::helper 28:10-30 sig="function helper(x: number): number"`,
		"edge calls src/factory.ts::make -> src/factory.ts::helper 0.9 name @25",
	})
}

// The rewrite is kept only when it parses better: a file with another error is
// read as written, and tsRepair leaves a comparison continued on the next line
// and a string holding the shapes alone.
func TestTypeScriptRepairOnlyWhereItHelps(t *testing.T) {
	t.Parallel()
	ff, err := Extract(context.Background(), "src/broken.ts", "typescript", []byte("export function f(: number {\n  return 1\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ff.ParseError == "" {
		t.Error("a file with a syntax error no repair fixes: ParseError is empty")
	}
	for _, src := range []string{
		"const a = 1;\nconst b = a\n  < 2;\n",
		"const s = \"<out T, in U>\";\nconst t = `\n  <T>(x)`;\n",
		"type A = { a: string };\n  <T>(x: T) => x;\n",
		"const f = (anything) => 1;\ng(string);\n",
	} {
		if got := string(tsRepair([]byte(src))); got != src {
			t.Errorf("tsRepair(%q) = %q, want it unchanged", src, got)
		}
	}
}
