package treesitter

import (
	"bytes"
	"regexp"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// objcSpec reads tree-sitter-objc 3.0.2 (vendored in grammar/objc), a superset
// of C: C's definitions, calls and includes are read as cSpec reads them.
//
// `@interface` and `@implementation` of a class (or of a category of it) are one
// class; a method declared in the interface is replaced by its definition in the
// implementation of the same file. A method is named by its full selector
// (`scale:with:`, `check`), as a message names it: `-[A do:]` and `-[A do:with:]`
// are two methods. A `@property` is a
// field; a `@protocol` is an interface. The superclass is an extends edge, the
// protocols a class adopts (`<NSCopying>`) implements, those a protocol adopts
// extends. A message `[obj do:x with:y]` is the call `obj.do:with:`, `[self m]`
// resolved in the enclosing class; a receiver declared `Foo *obj` (a local, a
// parameter) makes it `Foo.do:with:`. `#import` and `@import` are imports. A
// header (.h, which the index names C) written in Objective-C is read with this
// spec (see IsObjCHeader).
var objcSpec = Spec{
	Refs: []string{"identifier", "type_identifier"},
	Defs: append([]DefRule{
		{Node: "class_interface", Kind: graph.KindClass, NameTypes: []string{"identifier"}},
		{Node: "class_implementation", Kind: graph.KindClass, NameTypes: []string{"identifier"}},
		{Node: "protocol_declaration", Kind: graph.KindInterface, NameTypes: []string{"identifier"}},
		{Node: "method_declaration", Kind: graph.KindMethod, NameTypes: []string{"identifier"}, NameText: objcSelector, Forward: true},
		{Node: "method_definition", Kind: graph.KindMethod, NameTypes: []string{"identifier"}, NameText: objcSelector},
		{Node: "property_declaration", Kind: graph.KindField, Names: objcPropertyName},
	}, cDefs...),
	Calls: []CallRule{
		{Node: "call_expression", Field: "function", Targets: []graph.NodeKind{graph.KindFunction}},
		{Node: "message_expression", Field: "method", Receiver: "receiver", Targets: []graph.NodeKind{graph.KindMethod}},
	},
	Imports: map[string]func(*sitter.Node, []byte) []string{"preproc_include": cInclude, "module_import": objcModuleImport},
	Heritage: []HeritageRule{
		{Def: "class_interface", DefField: "superclass", Kind: graph.EdgeExtends, Bases: objcSelf},
		{Def: "class_interface", Clause: "parameterized_arguments", Kind: graph.EdgeImplements, Bases: objcProtocols},
		{Def: "protocol_declaration", Clause: "protocol_reference_list", Kind: graph.EdgeExtends},
	},
	Member:      []MemberRule{{Node: "field_expression", Object: "argument", Member: "field"}},
	SelfNames:   []string{"self"},
	Comments:    []string{"comment"},
	DocWrappers: []string{"type_definition", "declaration", "field_declaration"},
	Exported:    cExported,
	Unwrap:      cDeclarators,
	Rewrite:     objcEnumMacros,
	Callee:      objcMessageSelector,
	Bindings:    objcBindings,
	// A property's class (`@property Repo *repo` in a header) is a fact for the
	// cross-file pass: `self.repo.load` in the @implementation reaches Repo.
	AttributeTypes: true,
	// A class is named bare wherever a header brings it: a receiver declared
	// `Foo *x` is a Foo for the cross-file pass, as is a use of Foo.
	PackageScope: hasUpperInitial,
}

// nsEnum matches Foundation's enum macros, `typedef NS_ENUM(NSInteger, Mode)`,
// on one line.
var nsEnum = regexp.MustCompile(`(?:typedef[ \t]+)?NS_(?:ENUM|OPTIONS|CLOSED_ENUM|ERROR_ENUM)\([ \t]*([\w \t]+?)[ \t]*,[ \t]*(\w+)[ \t]*\)`)

// objcEnumMacros writes `typedef NS_ENUM(T, N) {…};` as `enum N : T {…};`, padded
// to the same length, which is what the grammar (and the macro's expansion)
// reads as an enum N of underlying type T. NS_ERROR_ENUM's first argument is an
// error domain, not a type.
func objcEnumMacros(src []byte) []byte {
	if !bytes.Contains(src, []byte("NS_")) {
		return src
	}
	return nsEnum.ReplaceAllFunc(src, func(m []byte) []byte {
		sub := nsEnum.FindSubmatch(m)
		out := "enum " + string(sub[2])
		if !bytes.Contains(m, []byte("NS_ERROR_ENUM")) {
			out += " : " + string(sub[1])
		}
		if len(out) > len(m) {
			return m
		}
		return []byte(out + strings.Repeat(" ", len(m)-len(out)))
	})
}

// objcPropertyName is the name a `@property` declares (its struct_declarator).
func objcPropertyName(n *sitter.Node, _ []byte) []*sitter.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() != "struct_declaration" {
			continue
		}
		for j := uint(0); j < c.NamedChildCount(); j++ {
			d := c.NamedChild(j)
			if d.Kind() != "struct_declarator" {
				continue
			}
			for d != nil && d.Kind() != "identifier" {
				next := d.ChildByFieldName("declarator")
				if next == nil && d.NamedChildCount() > 0 {
					next = d.NamedChild(0)
				}
				d = next
			}
			if d != nil {
				return []*sitter.Node{d}
			}
		}
	}
	return nil
}

// objcSelf is a clause that is itself the base (the superclass's identifier).
func objcSelf(clause *sitter.Node, _ []byte) []*sitter.Node { return []*sitter.Node{clause} }

// objcProtocols are the protocols in `<A, B>`.
func objcProtocols(clause *sitter.Node, _ []byte) []*sitter.Node {
	var out []*sitter.Node
	for i := uint(0); i < clause.NamedChildCount(); i++ {
		c := clause.NamedChild(i)
		if c.Kind() == "type_name" && c.NamedChildCount() > 0 {
			c = c.NamedChild(0)
		}
		if c.Kind() == "type_identifier" || c.Kind() == "identifier" {
			out = append(out, c)
		}
	}
	return out
}

// objcModuleImport reads `@import UIKit;` and `@import A.B;`.
func objcModuleImport(n *sitter.Node, src []byte) []string {
	path := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(text(n, src)), "@import"), ";"))
	if path == "" || len(path) > maxName || strings.ContainsAny(path, " \n") {
		return nil
	}
	return []string{ImportTarget(path, "", "")}
}
