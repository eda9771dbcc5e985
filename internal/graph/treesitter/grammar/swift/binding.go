// Package swift is the tree-sitter grammar of Swift, generated C from the npm
// package tree-sitter-swift 0.7.1 (MIT, see LICENSE), vendored because no Go module of it is
// served. The C files are compiled by cgo against the runtime of
// github.com/tree-sitter/go-tree-sitter, as the official bindings/go packages are.
package swift

// #cgo CFLAGS: -std=c11 -fPIC
// const void *tree_sitter_swift(void);
import "C"

import "unsafe"

// Language returns the grammar, for sitter.NewLanguage.
func Language() unsafe.Pointer {
	return unsafe.Pointer(C.tree_sitter_swift())
}
