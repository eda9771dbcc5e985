package treesitter

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjavascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tstypescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	tskotlin "github.com/etalab-ia/albert-code/internal/graph/treesitter/grammar/kotlin"
	tsobjc "github.com/etalab-ia/albert-code/internal/graph/treesitter/grammar/objc"
	tsswift "github.com/etalab-ia/albert-code/internal/graph/treesitter/grammar/swift"
)

// grammars maps a language name (as internal/graph/index names it) to its
// tree-sitter grammar. A grammar without an entry in specs is parsed by nobody:
// Extract refuses it with ErrNoSpec rather than returning empty facts.
// The grammars are built once, when the package is initialised: a *sitter.Language
// is immutable and safe to share between parsers.
var grammars = map[string]*sitter.Language{
	"go":         sitter.NewLanguage(tsgo.Language()),
	"python":     sitter.NewLanguage(tspython.Language()),
	"typescript": sitter.NewLanguage(tstypescript.LanguageTypescript()),
	"tsx":        sitter.NewLanguage(tstypescript.LanguageTSX()),
	"javascript": sitter.NewLanguage(tsjavascript.Language()),
	"csharp":     sitter.NewLanguage(tscsharp.Language()),
	"ruby":       sitter.NewLanguage(tsruby.Language()),
	"php":        sitter.NewLanguage(tsphp.LanguagePHP()),
	"rust":       sitter.NewLanguage(tsrust.Language()),
	"java":       sitter.NewLanguage(tsjava.Language()),
	"c":          sitter.NewLanguage(tsc.Language()),
	"cpp":        sitter.NewLanguage(tscpp.Language()),
	"kotlin":     sitter.NewLanguage(tskotlin.Language()),
	"swift":      sitter.NewLanguage(tsswift.Language()),
	"objc":       sitter.NewLanguage(tsobjc.Language()),
}

// Grammar returns the tree-sitter grammar of a language as internal/graph/index
// names it ("go", "python", "typescript", "tsx", "javascript", "csharp", "ruby",
// "php", "rust", "java", "c", "cpp", "kotlin", "swift", "objc"), for other uses of the same grammars (the
// terminal UI highlights code blocks with them).
func Grammar(name string) (*sitter.Language, bool) {
	g, ok := grammars[name]
	return g, ok
}
