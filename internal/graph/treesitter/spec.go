package treesitter

import (
	"strings"
	"unicode"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// Spec says, for one language, which syntax nodes Extract turns into facts. It is data:
// adding a language is adding a Spec value (and its grammar in languages.go). Every
// node type and field name in a Spec is the grammar's own (its node-types.json);
// spec_test.go fails when one is not.
type Spec struct {
	// Defs are the definitions. A definition nested in another one gets the outer
	// one as its scope (its QName prefix, and a contains edge from it).
	Defs []DefRule
	// Calls are the call sites.
	Calls []CallRule
	// Imports turn an import statement into the targets of imports edges.
	Imports map[string]func(n *sitter.Node, src []byte) []string
	// Heritage are the clauses of a definition that name its bases.
	Heritage []HeritageRule
	// Member is how the language spells `object.member`, so a callee like
	// `this.client.send` is written out whole and `self.m` is recognised.
	Member []MemberRule
	// SelfNames are the receivers that name the enclosing class (`self`, `this`).
	SelfNames []string
	// Comments are the node types of comments, for Doc.
	Comments []string
	// DocWrappers are node types that wrap a definition (`export_statement`,
	// `decorated_definition`); the comment above the wrapper documents the definition.
	DocWrappers []string
	// Docstring reads a Python-style docstring: the first statement of the body, a string.
	Docstring bool
	// Exported says whether a definition is visible outside its file or package.
	Exported func(name string, n *sitter.Node) bool
	// Scope, when set, overrides the lexical scope of a definition (a Go method's
	// scope is its receiver type, wherever the method is written).
	Scope func(n *sitter.Node, src []byte) string
}

// DefRule makes a node of type Node a definition of Kind.
type DefRule struct {
	Node string
	Kind graph.NodeKind
	// InType is the kind when the enclosing definition is a class, struct or
	// interface (a Python function in a class is a method); empty keeps Kind.
	InType graph.NodeKind
	// NameField holds the name; every child in that field is a definition (Go
	// `a, b int`). NameTypes, when set, lists the node types accepted as a name
	// (a destructuring pattern is not one).
	NameField string
	NameTypes []string
	// KindField and KindBy pick the kind from the node type of a field (a Go
	// type_spec is a struct when its type is a struct_type).
	KindField string
	KindBy    map[string]graph.NodeKind
	// BodyField ends the signature; empty means the signature is the first line.
	BodyField string
}

// CallRule makes a node of type Node a call of the callee in Field. A bare callee
// resolves within the file to a definition of one of Targets.
type CallRule struct {
	Node    string
	Field   string
	Targets []graph.NodeKind
}

// HeritageRule says that, in a definition of node type Def, a clause of node type
// Clause names bases of Kind (extends or implements). Field, when set, reads the
// base from that field of the clause rather than from its named children;
// SkipIfField skips a clause that has that field (a Go field with a name is not an
// embedding).
type HeritageRule struct {
	Def         string
	Clause      string
	Kind        graph.EdgeKind
	Field       string
	SkipIfField string
}

// MemberRule names the fields of a member-access node.
type MemberRule struct {
	Node, Object, Member string
}

// specs holds the languages Extract knows how to read; a grammar without a spec is
// refused (ErrNoSpec).
var specs = map[string]*Spec{
	"go":         &goSpec,
	"python":     &pythonSpec,
	"typescript": &typescriptSpec,
	"tsx":        &typescriptSpec,
	"javascript": &javascriptSpec,
}

func hasUpperInitial(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

func notUnderscore(name string, _ *sitter.Node) bool { return !strings.HasPrefix(name, "_") }

// underExport reports whether n is inside an `export` statement (JS/TS).
func underExport(name string, n *sitter.Node) bool {
	if strings.HasPrefix(name, "#") {
		return false
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == "export_statement" {
			return true
		}
	}
	return false
}
