package resolve

import (
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// Module is what the module part of an import target resolved to.
type Module struct {
	// Files define the module: a module file, a Python package's __init__.py, a Go
	// package's files. Empty for a namespace package (a directory only).
	Files []string
	// Dir is a package's directory, where its submodules are; "" for a module file.
	Dir string
	// Scope, when set, is the scope its files define its names under (a PHP
	// namespace: `f.php::App\Models::User`).
	Scope string
	// External: the module lies outside the repository (a bare npm package, the
	// standard library, another Go module). Not a miss.
	External bool
	// Alternatives counts the other files the module could name as well (several
	// Python roots hold it): the first was taken.
	Alternatives int
}

// Found reports whether the module is in the repository.
func (m Module) Found() bool { return len(m.Files) > 0 || m.Dir != "" }

// Bound is a local name a plain `import module` binds, and the module it names.
type Bound struct{ Local, Module string }

// Language is what the pass knows of one family of languages: how a module as
// written becomes files, and which names an import binds. Adding a language to the
// pass is adding an entry to languages.
type Language struct {
	// Family groups the languages that import each other (TypeScript and
	// JavaScript); matching by name stays within a family.
	Family string
	// Module resolves module, as written in the file at from, to repository files.
	Module func(t *Tree, from, module string) Module
	// Bind lists what a plain `import module` (no name, no alias) binds; nil binds
	// nothing (a JavaScript side-effect import).
	Bind func(module string) []Bound
	// Key names the module for dependency records: the name its file or
	// directory would have (`util` for `pkg.util`, `./util.js`, `a/b/util`).
	Key func(module string) string
	// Submodule, when set, finds the module name nested in package pkg (Python's
	// `from pkg import mod`).
	Submodule func(t *Tree, pkg Module, name string) Module
	// Package, when set, lists the files whose top-level definitions the file at
	// from sees without importing them (a Go package's other files).
	Package func(t *Tree, from string) []string
	// SelfNames are the receivers that name the enclosing class.
	SelfNames []string
	// ImplicitSelf: a bare `m()` inside a class is `this.m()` first (Java, C#).
	ImplicitSelf bool
	// OwnNames: a qualified site may start with a top-level name of its own file
	// (Python's `T.m`, written for a receiver of a class T of the file).
	OwnNames bool
	// Star: a plain `import module` brings every top-level name of the module
	// (C's #include, Ruby's require, PHP's include).
	Star bool
	// ValueMember, when set, finds name as a member of a definition that is not
	// a type (a variable, a field, a function's result), through the type its
	// declaration names (Go).
	ValueMember func(v *view, l lookup, name string, d *deps) lookup
	// Implements, when set, lists the implements edges of the types file
	// defines that no clause declares (Go's method sets).
	Implements func(v *view, file string, d *deps) []graph.Edge
	// Headers are the extensions of files that declare what other files define
	// (C and C++ headers): a function found in one is followed to its definition.
	Headers []string
	// Reopening, when set, says that a definition reopens a type declared
	// elsewhere (a Swift extension) or declares what another file defines (Rust's
	// `mod x;`): a name is taken where it is defined, the reopening only when
	// nothing else defines it.
	Reopening func(v *view, n graph.Node) bool
	// StarsOwnOnly: a star import brings the module's own names, not what its
	// files import in turn (Kotlin's `import a.*`, C#'s `using`, Rust's `use
	// a::*`; C's #include, textual, brings everything).
	StarsOwnOnly bool
	// ModuleOf, when set, names the module of a file whose Package is a whole
	// module (Swift's): its definitions are indexed once per pass, and a lookup
	// reads the one file it matches, not each file of the module.
	ModuleOf func(file string) string
	// SameClass, when set, lists the other declarations of class c that are
	// the same class (an Objective-C @implementation's @interface in a header
	// its file imports): their members, bases and attributes are c's.
	SameClass func(v *view, c string, d *deps) []string
	// ImplicitNames, when set, lists names every file of the language binds to a
	// module without importing it (Rust's `crate` and `super`).
	ImplicitNames func(file string) []Bound
	// Implicit, when set, lists modules the file at file sees as if it
	// star-imported them (a C# file's own namespaces).
	Implicit func(v *view, file string) []string
}

// languages maps the index's language names to their resolvers. A language
// without an entry keeps the extractor's facts as they are.
var languages = map[string]*Language{
	"python":     &pythonLanguage,
	"typescript": &jsLanguage,
	"tsx":        &jsLanguage,
	"javascript": &jsLanguage,
	"go":         &goLanguage,
	"java":       &javaLanguage,
	"c":          &cLanguage,
	"cpp":        &cLanguage,
	"ruby":       &rubyLanguage,
	"php":        &phpLanguage,
	"kotlin":     &kotlinLanguage,
	"swift":      &swiftLanguage,
	"objc":       &objcLanguage,
	"csharp":     &csharpLanguage,
	"rust":       &rustLanguage,
}

// family lists the index's language names of a family, sorted.
func family(name string) []string {
	var out []string
	for l, lang := range languages {
		if lang.Family == name {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// Languages lists the languages the pass resolves, sorted.
func Languages() []string {
	out := make([]string, 0, len(languages))
	for l := range languages {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// kindClass is a set of definition kinds a site can name, with a name for the
// dependency records' filters.
type kindClass struct {
	name  string
	kinds []graph.NodeKind
}

var (
	// callables: what a bare call names (a class is its constructor).
	callables = kindClass{"callable", []graph.NodeKind{graph.KindFunction, graph.KindClass}}
	// methods: what `receiver.name()` names when the receiver's type is unknown.
	methods = kindClass{"method", []graph.NodeKind{graph.KindMethod}}
	// types: what an extends or implements clause names.
	types = kindClass{"type", []graph.NodeKind{graph.KindClass, graph.KindInterface, graph.KindStruct,
		graph.KindType, graph.KindTypeAlias, graph.KindEnum}}
	// anything: what a reference names.
	anything = kindClass{"any", []graph.NodeKind{graph.KindFunction, graph.KindMethod, graph.KindClass,
		graph.KindInterface, graph.KindStruct, graph.KindType, graph.KindTypeAlias, graph.KindEnum,
		graph.KindVariant, graph.KindField, graph.KindConstant, graph.KindVariable}}
)

var kindClasses = map[string]kindClass{callables.name: callables, methods.name: methods, types.name: types, anything.name: anything}

// classOf is the kinds a site of kind k, written name, can name.
func classOf(k graph.EdgeKind, name string) kindClass {
	switch {
	case k == graph.EdgeExtends || k == graph.EdgeImplements:
		return types
	case k == graph.EdgeCalls && strings.Contains(name, "."):
		return methods
	case k == graph.EdgeCalls:
		return callables
	}
	return anything
}

// filter names a family and a kind class in a DepName record: `python:callable`.
func filter(fam string, c kindClass) string { return fam + ":" + c.name }

// parseFilter reads a filter back; ok is false for one this build does not know.
func parseFilter(f string) (langs []string, c kindClass, ok bool) {
	fam, cls, found := strings.Cut(f, ":")
	c, ok = kindClasses[cls]
	if !found || !ok {
		return nil, kindClass{}, false
	}
	return family(fam), c, true
}

func isTypeKind(k graph.NodeKind) bool {
	return k == graph.KindClass || k == graph.KindStruct || k == graph.KindInterface || k == graph.KindEnum
}
