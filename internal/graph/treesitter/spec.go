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
	// Refs are the node types of a name use (identifier, type_identifier): a use of
	// a name the file defines becomes a references edge, of a name it imports a
	// references site for the cross-file pass; other names are locals or builtins.
	Refs []string
	// Comments are the node types of comments, for Doc.
	Comments []string
	// DocWrappers are node types that wrap a definition (`export_statement`,
	// `decorated_definition`); the comment above the wrapper documents the definition.
	DocWrappers []string
	// Docstring reads a Python-style docstring: the first statement of the body, a string.
	Docstring bool
	// Exported says whether a definition is visible outside its file or package.
	Exported func(name string, n *sitter.Node) bool
	// Scope, when set, names the scope a definition belongs to under its lexical
	// one (a Go method's scope is its receiver type, wherever the method is
	// written; C++ `void A::f()` in namespace n is n::A::f). Calls in it reach that
	// scope's methods as `this.m()`, unless the file defines it as a namespace.
	Scope func(n *sitter.Node, src []byte) string
	// Callee, when set, names a callee node (or part of one) that the Member rules
	// and the leaf rule do not, or returns "" to leave it to them; name writes a
	// sub-node out the same way. For PHP `$this` and `\A\B`, C# `M<T>` and `a?.M`.
	Callee func(n *sitter.Node, src []byte, name func(*sitter.Node) string) string
	// Unwrap maps node types that wrap a definition's name to the field the name
	// continues in ("" for the first named child): C's `*f(void)` is a
	// pointer_declarator around a function_declarator around f.
	Unwrap map[string]string
	// ImplicitSelf reads a bare callee inside a type as a method of that type first
	// (Java, C++: `m()` is `this.m()`); elsewhere a bare name is the file's.
	ImplicitSelf bool
	// DocSkip are node types that may stand between a definition and its comment
	// (Rust's `#[derive(…)]` under `/// doc`).
	DocSkip []string
	// DocHolders are body node types whose first statement's comment the grammar
	// gives to the body's parent (Ruby's body_statement: the comment above a class's
	// first method is a child of the class).
	DocHolders []string
	// Bindings, when set, reads what a function, a type or the file's root binds
	// (see Bindings): locals shadow the file's definitions of the same name, and a
	// receiver of known type makes `x.m()` the site `T.m`, which the cross-file
	// pass resolves through T and its bases.
	Bindings func(n *sitter.Node, src []byte) Bindings
	// Repair, when set, rewrites a source the grammar does not parse into one it
	// may, every byte kept at its offset (see tsRepair); Extract keeps the
	// rewrite only when it parses with fewer errors.
	Repair func(src []byte) []byte
	// AttributeTypes: the types Bindings gives a class's attributes are written
	// for the cross-file pass (AttributeType sites).
	AttributeTypes bool
	// ClassScopeHidden: a name a class body defines is not visible bare in its
	// methods, nor a nested function's outside its function (Python's scoping).
	ClassScopeHidden bool
	// CalleeHeadRefs: the head of a dotted callee is a use (`console` in
	// `console.print()`, `T` in `T.create()`).
	CalleeHeadRefs bool
	// Decorated is the node type that wraps a definition with its decorators
	// (Python's decorated_definition): the calls and uses in the decorators are
	// the definition's, as its body's are.
	Decorated string
	// PackageScope, when set, says whether a bare name the file neither defines
	// nor imports may be a top-level definition of another file of its package
	// (Go: any name but a predeclared one). Such a name is left to the cross-file
	// pass, as a use or as a receiver's type.
	PackageScope func(name string) bool
	// MemberChains: a member of a member is a use written whole (`x.a.b`, which
	// the cross-file pass follows through declared types), and so are the member
	// accesses inside a dotted callee (`x.a` of `x.a.b()`).
	MemberChains bool
	// Rewrite, when set, rewrites the source before it is parsed, keeping every
	// byte where it was (a rewritten span is padded with spaces, lines are never
	// joined): Objective-C's NS_ENUM macro becomes the enum it declares.
	Rewrite func(src []byte) []byte
}

// Bindings are the names one scope binds. Locals are a function's own names
// (parameters, loop, with and except targets); Outer are those it declares
// global or nonlocal, which stay the enclosing scope's whatever assigns them.
// Types maps a name to the type it holds, as written (`Environment`,
// `nodes.Node`): a function's locals, a module's variables, a class's fields and
// self attributes. A type written `f()` is what the file declares f returns;
// a function's own return type is under returnKey.
type Bindings struct {
	Locals []string
	Outer  []string
	Types  map[string]string
}

// returnKey keys a function's return type in Bindings.Types: `return` is a
// keyword, never a name.
const returnKey = "return"

// DefRule makes a node of type Node a definition of Kind.
type DefRule struct {
	Node string
	Kind graph.NodeKind
	// InType is the kind when the enclosing definition is a class, struct or
	// interface (a Python function in a class is a method); empty keeps Kind.
	InType graph.NodeKind
	// NameField holds the name; every child in that field is a definition (Go
	// `a, b int`). NameTypes, when set, lists the node types accepted as a name
	// (a destructuring pattern is not one). An empty NameField means the name is
	// the first named child of a type in NameTypes (a PHP const_element has no field).
	NameField string
	NameTypes []string
	// NamePrefix is a sigil the source writes before the name and the graph does
	// not (PHP's `$` of a property, accessed as `$this->name`).
	NamePrefix string
	// NameText, when set, writes the name from the definition n and its name
	// node nm (Objective-C's selector `scale:with:` spans several nodes).
	NameText func(n, nm *sitter.Node, src []byte) string
	// Names, when set, finds the name nodes in place of NameField (a Ruby call
	// `attr_reader :a, :b` names the fields a and b; any other call, none).
	Names func(n *sitter.Node, src []byte) []*sitter.Node
	// KindField and KindBy pick the kind from the node type of a field (a Go
	// type_spec is a struct when its type is a struct_type).
	KindField string
	KindBy    map[string]graph.NodeKind
	// KindOf, when set and not empty, has the last word on the kind (a C# field
	// declared `const` is a constant).
	KindOf func(n *sitter.Node, src []byte) graph.NodeKind
	// BodyField ends the signature; empty means the signature is the first line.
	BodyField string
	// AfterAnnotations: without a BodyField, the signature is the first line that
	// is not an annotation (Kotlin's `@Suppress("x")` above `class A`).
	AfterAnnotations bool
	// OpensRest makes a definition without a BodyField child the scope of the
	// statements after it in the same block, up to the next one (C# `namespace A;`,
	// PHP `namespace A;`).
	OpensRest bool
	// Forward marks a declaration that a later definition of the same QName in
	// the file replaces (a C prototype, a typedef of a struct defined below, a C++
	// method declared in its class and defined out of it).
	Forward bool
	// Transparent scopes what the node holds in the enclosing definition, not in
	// this one (the struct of `typedef struct S {…} T` is S, not T::S).
	Transparent bool
	// NeedsBody makes a node without its BodyField a reference, not a definition
	// (C's `struct S *p`).
	NeedsBody bool
	// Reopens makes the node a reopening of the type named in NameField, defined
	// wherever it is (Rust `impl T`): no node is made, what the node holds is read
	// as written in that type (Kind says it is a type), and the node's heritage
	// rules give that type its bases.
	Reopens bool
	// Unnamed names a definition that has no name of its own after its parent
	// (C's `typedef struct {…} T` is the struct T).
	Unnamed ParentField
}

// ParentField is a field of a parent of node type Parent.
type ParentField struct {
	Parent, Field string
}

// CallRule makes a node of type Node a call of the callee in Field (the node
// itself when Field is empty: a Ruby method called by its bare name). A bare callee
// resolves within the file to a definition of one of Targets.
type CallRule struct {
	Node    string
	Field   string
	Targets []graph.NodeKind
	// Receiver is the field holding the object called on, for grammars whose
	// callee field holds only the method's name (Ruby `obj.m`, PHP `$o->m()`,
	// `A::m()`): the callee is then written `object.member`.
	Receiver string
	// When, when set, must accept the node, seen in its parent, for it to be a
	// call (a Ruby identifier is a call only where it cannot be a local variable).
	When func(n, parent *sitter.Node, src []byte) bool
	// CalleeFirst: the callee is the node's first named child, for grammars that
	// give it no field (Kotlin's and Swift's call_expression).
	CalleeFirst bool
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
	// InBody, when set, is the definition's body field: the clauses are the body's
	// statements rather than part of the header (PHP `use Trait;`, Ruby `include M`).
	InBody string
	// Bases, when set, picks the base nodes of a clause instead of Field or the
	// named children (a Ruby call names bases only when it is `include`).
	Bases func(clause *sitter.Node, src []byte) []*sitter.Node
	// Pick, when set, decides the edge kind of each base from its position in the
	// clause and its name (a C# base list mixes the base class and interfaces).
	Pick func(i int, name string) graph.EdgeKind
	// DefField, when set, reads the clause from this field of the definition
	// rather than searching for Clause nodes, which then need not be set (a Rust
	// trait's `bounds`, not the bounds of its type parameters).
	DefField string
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
	"csharp":     &csharpSpec,
	"ruby":       &rubySpec,
	"php":        &phpSpec,
	"rust":       &rustSpec,
	"java":       &javaSpec,
	"c":          &cSpec,
	"cpp":        &cppSpec,
	"kotlin":     &kotlinSpec,
	"swift":      &swiftSpec,
	"objc":       &objcSpec,
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
