package treesitter

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// rubySpec reads tree-sitter-ruby v0.23.1.
//
// A signature is the definition's first line: the body of a class or method may
// begin with comments the grammar gives to the definition, not to the body.
//
// Every `def` is a method, at the top level too (Ruby makes it a private method of
// Object); `def self.m` is a method of its class. A module is a namespace; a class
// or module that includes, extends or prepends a module implements it. Constants
// (`MAX = 3`), globals (`$g = 1`) and the attributes a class declares
// (`attr_reader :radius`, a field) are definitions; locals are not. Ruby has no
// export: every definition is exported. Calls are `obj.m`, `m(x)`, `m x`, and a
// bare `m` where it cannot be a local variable (see rubyBareCall).
var rubySpec = Spec{
	Refs: []string{"identifier", "constant"},
	Defs: []DefRule{
		{Node: "module", Kind: graph.KindNamespace, NameField: "name"},
		{Node: "class", Kind: graph.KindClass, NameField: "name"},
		{Node: "method", Kind: graph.KindMethod, NameField: "name"},
		{Node: "singleton_method", Kind: graph.KindMethod, NameField: "name"},
		{Node: "assignment", Kind: graph.KindConstant, NameField: "left", NameTypes: []string{"constant", "global_variable"},
			KindField: "left", KindBy: map[string]graph.NodeKind{"global_variable": graph.KindVariable}},
		{Node: "call", Kind: graph.KindField, Names: rubyAttributes, NamePrefix: ":"},
	},
	Calls: []CallRule{
		{Node: "call", Field: "method", Receiver: "receiver", Targets: []graph.NodeKind{graph.KindMethod}},
		{Node: "identifier", When: rubyBareCall, Targets: []graph.NodeKind{graph.KindMethod}},
	},
	Imports: map[string]func(*sitter.Node, []byte) []string{"call": rubyRequire},
	Heritage: []HeritageRule{
		{Def: "class", Clause: "superclass", Kind: graph.EdgeExtends},
		{Def: "class", Clause: "call", Kind: graph.EdgeImplements, InBody: "body", Bases: rubyMixins},
		{Def: "module", Clause: "call", Kind: graph.EdgeImplements, InBody: "body", Bases: rubyMixins},
	},
	Member:       []MemberRule{{Node: "call", Object: "receiver", Member: "method"}},
	SelfNames:    []string{"self"},
	Comments:     []string{"comment"},
	DocHolders:   []string{"body_statement"},
	Exported:     func(string, *sitter.Node) bool { return true },
	Callee:       rubyCallee,
	ImplicitSelf: true, // a bare `m` inside a class is `self.m`
}

// rubyAttributes are the names an `attr_reader`, `attr_writer`, `attr_accessor`
// or `attr` call declares; any other call declares none.
func rubyAttributes(n *sitter.Node, src []byte) []*sitter.Node {
	if n.ChildByFieldName("receiver") != nil {
		return nil
	}
	switch fieldText(n, "method", src) {
	case "attr_reader", "attr_writer", "attr_accessor", "attr":
	default:
		return nil
	}
	args := n.ChildByFieldName("arguments")
	if args == nil {
		return nil
	}
	var out []*sitter.Node
	for i := uint(0); i < args.NamedChildCount(); i++ {
		if a := args.NamedChild(i); a.Kind() == "simple_symbol" {
			out = append(out, a)
		}
	}
	return out
}

// rubyCallee writes a constant path whole, `Foo::Bar` in `Foo::Bar.new`.
func rubyCallee(n *sitter.Node, src []byte, _ func(*sitter.Node) string) string {
	if n.Kind() != "scope_resolution" || n.EndByte()-n.StartByte() > maxName {
		return ""
	}
	if s := text(n, src); !strings.ContainsAny(s, " \n\t") {
		return s
	}
	return ""
}

// rubyStatementLists are the nodes whose children are statements. The program is
// not one of them: a script's bare words are left alone.
var rubyStatementLists = map[string]bool{
	"body_statement": true, "block_body": true, "then": true, "else": true,
	"do": true, "begin": true, "ensure": true, "parenthesized_statements": true,
}

// rubyScopes end the search for a local variable's parameter: a method's locals
// are its own.
var rubyScopes = map[string]bool{
	"method": true, "singleton_method": true, "class": true, "module": true, "singleton_class": true, "program": true,
}

// rubyBareCall reports whether an identifier is a method called by its bare name
// (`save` on a line of its own). Ruby spells a local variable the same way, so the
// identifier must be a whole statement. A local read there does nothing unless it
// is the block's last statement, its value; so a bare word before the last is a
// call, and the last one is a call unless an earlier statement of its block
// assigns the name or an enclosing method or block takes it as a parameter.
// Every test but the last statement's is constant time: this runs for every
// identifier of the file.
func rubyBareCall(n, parent *sitter.Node, src []byte) bool {
	if !rubyStatementLists[parent.Kind()] {
		return false
	}
	if n.EndByte() < parent.EndByte() {
		return true
	}
	name := text(n, src)
	if rubyAssignsBefore(parent, n, name, src) {
		return false
	}
	for anc := parent.Parent(); anc != nil; anc = anc.Parent() {
		if params := anc.ChildByFieldName("parameters"); params != nil && rubyHasParam(params, name, src) {
			return false
		}
		if rubyScopes[anc.Kind()] {
			break
		}
	}
	return true
}

// rubyAssignsBefore reports whether a statement of list before stop assigns name.
func rubyAssignsBefore(list, stop *sitter.Node, name string, src []byte) bool {
	c := list.Walk()
	defer c.Close()
	for ok := c.GotoFirstChild(); ok; ok = c.GotoNextSibling() {
		s := c.Node()
		if s.StartByte() >= stop.StartByte() {
			break
		}
		if s.Kind() != "assignment" && s.Kind() != "operator_assignment" {
			continue
		}
		left := s.ChildByFieldName("left")
		if left == nil {
			continue
		}
		if left.Kind() == "identifier" && text(left, src) == name {
			return true
		}
		if left.Kind() == "left_assignment_list" {
			for i := uint(0); i < left.NamedChildCount(); i++ {
				if v := left.NamedChild(i); v.Kind() == "identifier" && text(v, src) == name {
					return true
				}
			}
		}
	}
	return false
}

// rubyHasParam reports whether a parameter list declares name.
func rubyHasParam(params *sitter.Node, name string, src []byte) bool {
	for i := uint(0); i < params.NamedChildCount(); i++ {
		p := params.NamedChild(i)
		if p.Kind() == "identifier" && text(p, src) == name {
			return true
		}
		if nm := p.ChildByFieldName("name"); nm != nil && text(nm, src) == name {
			return true
		}
	}
	return false
}

// rubyMixins are the modules a body statement `include A, B` (or extend, prepend)
// mixes in; any other call names none.
func rubyMixins(clause *sitter.Node, src []byte) []*sitter.Node {
	if clause.ChildByFieldName("receiver") != nil {
		return nil
	}
	switch fieldText(clause, "method", src) {
	case "include", "extend", "prepend":
	default:
		return nil
	}
	args := clause.ChildByFieldName("arguments")
	if args == nil {
		return nil
	}
	var out []*sitter.Node
	for i := uint(0); i < args.NamedChildCount(); i++ {
		out = append(out, args.NamedChild(i))
	}
	return out
}

// rubyRequire reads the calls that load code:
//
//	require 'json'              json
//	load 'tasks/x.rb'           tasks/x.rb
//	require_relative 'lib/x'    ./lib/x        (relative to the requiring file)
//	require_relative '../x'     ../x
//	autoload :Foo, 'foo/bar'    foo/bar::Foo
//
// A path that is not a plain string literal (interpolated, computed) is no target;
// the call is then read as a call.
func rubyRequire(n *sitter.Node, src []byte) []string {
	if n.ChildByFieldName("receiver") != nil {
		return nil
	}
	args := n.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() == 0 {
		return nil
	}
	switch method := fieldText(n, "method", src); method {
	case "require", "load", "require_relative":
		path, ok := rubyString(args.NamedChild(0), src)
		if !ok {
			return nil
		}
		if method == "require_relative" && !strings.HasPrefix(path, ".") {
			path = "./" + path
		}
		return []string{ImportTarget(path, "", "")}
	case "autoload":
		if args.NamedChildCount() < 2 || args.NamedChild(0).Kind() != "simple_symbol" {
			return nil
		}
		path, ok := rubyString(args.NamedChild(1), src)
		if !ok {
			return nil
		}
		return []string{ImportTarget(path, strings.TrimPrefix(text(args.NamedChild(0), src), ":"), "")}
	}
	return nil
}

// rubyString is the content of a string literal without interpolation.
func rubyString(n *sitter.Node, src []byte) (string, bool) {
	if n == nil || n.Kind() != "string" || n.NamedChildCount() != 1 || n.NamedChild(0).Kind() != "string_content" {
		return "", false
	}
	s := text(n.NamedChild(0), src)
	if s == "" || len(s) > maxName || strings.ContainsAny(s, "\n") {
		return "", false
	}
	return s, true
}
