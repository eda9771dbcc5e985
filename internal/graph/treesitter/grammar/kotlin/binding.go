// Package kotlin is the tree-sitter grammar of Kotlin, generated C from the npm
// package @tree-sitter-grammars/tree-sitter-kotlin 1.1.0 (MIT, see LICENSE), vendored because no Go module of it is
// served. The C files are compiled by cgo against the runtime of
// github.com/tree-sitter/go-tree-sitter, as the official bindings/go packages are.
//
// One change to scanner.c (marked "albert-code patch"): the automatic semicolon
// that ends a class member is also inserted before a closing brace on the same
// line, so `object O { val x = 1 }` parses.
package kotlin

// #cgo CFLAGS: -std=c11 -fPIC
// const void *tree_sitter_kotlin(void);
import "C"

import "unsafe"

// Language returns the grammar, for sitter.NewLanguage.
func Language() unsafe.Pointer {
	return unsafe.Pointer(C.tree_sitter_kotlin())
}
