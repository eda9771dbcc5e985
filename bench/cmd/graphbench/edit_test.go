package main

import (
	"strings"
	"testing"
)

func TestEditBody(t *testing.T) {
	tests := []struct {
		name, lang, src string
		line            int
		want            string // "" when the edit must be refused
	}{
		{"go function", "go", "package p\n\nfunc F() int {\n\treturn 1\n}\n", 3,
			"package p\n\nfunc F() int { _ = 7;\n\treturn 1\n}\n"},
		{"go method, signature over two lines", "go", "package p\n\ntype T struct{}\n\nfunc (T) M(\n\ta int,\n) int {\n\treturn a\n}\n", 5,
			"package p\n\ntype T struct{}\n\nfunc (T) M(\n\ta int,\n) int { _ = 7;\n\treturn a\n}\n"},
		{"python method with a docstring", "python", "class A:\n    def m(self):\n        \"\"\"Doc.\"\"\"\n        return 1\n", 2,
			"class A:\n    def m(self):\n        _bench_edit = 7\n        \"\"\"Doc.\"\"\"\n        return 1\n"},
		{"python inner function", "python", "def f():\n    def g():\n        return 2\n    return g\n", 2,
			"def f():\n    def g():\n        _bench_edit = 7\n        return 2\n    return g\n"},
		{"typescript method", "typescript", "class A {\n  m(): number {\n    return 1;\n  }\n}\n", 2,
			"class A {\n  m(): number { void 7;\n    return 1;\n  }\n}\n"},
		{"python one-liner", "python", "def f(): pass\n", 1, ""},
		{"no function on the line", "go", "package p\n\nvar x = 1\n", 3, ""},
		{"typescript arrow with an expression body", "typescript", "const f = (a: number) => a + 1;\n", 1, ""},
		{"language without grammar", "cobol", "whatever", 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := editBody([]byte(tt.src), tt.lang, tt.line, 7)
			if ok != (tt.want != "") || string(got) != tt.want {
				t.Errorf("editBody = %v, %q\nwant %q", ok, got, tt.want)
			}
		})
	}
}

func TestAddFunction(t *testing.T) {
	tests := []struct{ lang, src, want string }{
		{"go", "package p", "package p\n\nfunc BenchAdded3() int { return 3 }\n"},
		{"python", "x = 1\n", "x = 1\n\n\ndef bench_added_3():\n    return 3\n"},
		{"typescript", "export const a = 1;\n", "export const a = 1;\n\nfunction BenchAdded3() { return 3; }\n"},
	}
	for _, tt := range tests {
		got, ok := addFunction([]byte(tt.src), tt.lang, 3)
		if !ok || string(got) != tt.want {
			t.Errorf("addFunction(%s) = %v, %q; want %q", tt.lang, ok, got, tt.want)
		}
		if !strings.Contains(string(got), addedName(tt.lang, 3)) {
			t.Errorf("addFunction(%s) does not define %s", tt.lang, addedName(tt.lang, 3))
		}
	}
	if _, ok := addFunction([]byte("func ( {"), "go", 1); ok {
		t.Error("addFunction accepted a file that does not parse")
	}
}
