// Package objc is the tree-sitter grammar of Objective-C, generated C from the npm
// package tree-sitter-objc 3.0.2 (MIT, see LICENSE), vendored because no Go module of it is
// served. The C files are compiled by cgo against the runtime of
// github.com/tree-sitter/go-tree-sitter, as the official bindings/go packages are.
package objc

// #cgo CFLAGS: -std=c11 -fPIC
// const void *tree_sitter_objc(void);
import "C"

import "unsafe"

// Language returns the grammar, for sitter.NewLanguage.
func Language() unsafe.Pointer {
	return unsafe.Pointer(C.tree_sitter_objc())
}
