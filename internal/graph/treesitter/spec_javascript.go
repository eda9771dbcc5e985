package treesitter

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// functionValues are the values that make a variable declarator a function
// (`const f = () => {}`).
var functionValues = map[string]graph.NodeKind{
	"arrow_function":      graph.KindFunction,
	"function_expression": graph.KindFunction,
	"generator_function":  graph.KindFunction,
}

var jsDefs = []DefRule{
	{Node: "function_declaration", Kind: graph.KindFunction, NameField: "name", BodyField: "body"},
	{Node: "generator_function_declaration", Kind: graph.KindFunction, NameField: "name", BodyField: "body"},
	{Node: "class_declaration", Kind: graph.KindClass, NameField: "name", BodyField: "body"},
	{Node: "method_definition", Kind: graph.KindMethod, NameField: "name", BodyField: "body"},
	{Node: "variable_declarator", Kind: graph.KindVariable, NameField: "name", NameTypes: []string{"identifier"},
		KindField: "value", KindBy: functionValues, BodyField: "value"},
}

var jsCalls = []CallRule{
	{Node: "call_expression", Field: "function", Targets: []graph.NodeKind{graph.KindFunction}},
	{Node: "new_expression", Field: "constructor", Targets: []graph.NodeKind{graph.KindClass}},
}

var jsImports = map[string]func(*sitter.Node, []byte) []string{
	"import_statement": jsImport,
	"export_statement": jsReexport,
}

// javascriptSpec reads tree-sitter-javascript v0.23.1 (JSX included).
var javascriptSpec = Spec{
	Refs: []string{"identifier"},
	Defs: append(append([]DefRule{}, jsDefs...),
		DefRule{Node: "field_definition", Kind: graph.KindField, NameField: "property"}),
	Calls:   jsCalls,
	Imports: jsImports,
	Heritage: []HeritageRule{
		{Def: "class_declaration", Clause: "class_heritage", Kind: graph.EdgeExtends},
	},
	Member:      []MemberRule{{Node: "member_expression", Object: "object", Member: "property"}},
	SelfNames:   []string{"this"},
	Comments:    []string{"comment"},
	DocWrappers: []string{"export_statement", "lexical_declaration", "variable_declaration"},
	Exported:    underExport,
	Scope:       jsScope,

	Bindings:       jsBindings,
	CalleeHeadRefs: true,
	MemberChains:   true,
	Callee:         jsCallee,
}

// typescriptSpec reads tree-sitter-typescript v0.23.2, both its typescript and tsx
// grammars. Overload signatures (function_signature) are definitions: the first of
// an overload set names the function (see Extract on collisions).
var typescriptSpec = Spec{
	Refs: []string{"identifier", "type_identifier"},
	Defs: append(append([]DefRule{}, jsDefs...),
		DefRule{Node: "abstract_class_declaration", Kind: graph.KindClass, NameField: "name", BodyField: "body"},
		DefRule{Node: "interface_declaration", Kind: graph.KindInterface, NameField: "name", BodyField: "body"},
		DefRule{Node: "type_alias_declaration", Kind: graph.KindTypeAlias, NameField: "name", BodyField: "value"},
		DefRule{Node: "enum_declaration", Kind: graph.KindEnum, NameField: "name", BodyField: "body"},
		DefRule{Node: "function_signature", Kind: graph.KindFunction, NameField: "name"},
		DefRule{Node: "method_signature", Kind: graph.KindMethod, Names: interfaceMember},
		DefRule{Node: "abstract_method_signature", Kind: graph.KindMethod, NameField: "name"},
		DefRule{Node: "property_signature", Kind: graph.KindField, Names: interfaceMember},
		DefRule{Node: "public_field_definition", Kind: graph.KindField, NameField: "name", BodyField: "value"},
	),
	Calls:   jsCalls,
	Imports: jsImports,
	Heritage: []HeritageRule{
		{Def: "class_declaration", Clause: "extends_clause", Kind: graph.EdgeExtends, Field: "value"},
		{Def: "class_declaration", Clause: "implements_clause", Kind: graph.EdgeImplements},
		{Def: "abstract_class_declaration", Clause: "extends_clause", Kind: graph.EdgeExtends, Field: "value"},
		{Def: "abstract_class_declaration", Clause: "implements_clause", Kind: graph.EdgeImplements},
		{Def: "interface_declaration", Clause: "extends_type_clause", Kind: graph.EdgeExtends, Field: "type"},
		tsUnionRule,
	},
	// A type named through a namespace import (`errors.$ZodErrorMap`) is a use of
	// the module's member, as `errors.f()` is.
	Member: []MemberRule{
		{Node: "member_expression", Object: "object", Member: "property"},
		{Node: "nested_type_identifier", Object: "module", Member: "name"},
	},
	SelfNames:   []string{"this"},
	Comments:    []string{"comment"},
	DocWrappers: []string{"export_statement", "lexical_declaration", "variable_declaration"},
	Exported:    underExport,
	Scope:       jsScope,

	Bindings:       jsBindings,
	CalleeHeadRefs: true,
	MemberChains:   true,
	Callee:         jsCallee,
	Repair:         tsRepair,
}

// interfaceMember names a property or method signature of an interface or a
// class (a method's overload); the members of an object type (`type T = { a:
// string }`, `x: { a: string }`) are not definitions, as the TypeScript checker
// has them.
func interfaceMember(n *sitter.Node, _ []byte) []*sitter.Node {
	if p := n.Parent(); p == nil || p.Kind() == "object_type" {
		return nil
	}
	if name := n.ChildByFieldName("name"); name != nil {
		return []*sitter.Node{name}
	}
	return nil
}
