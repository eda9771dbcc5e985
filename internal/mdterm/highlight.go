package mdterm

import (
	"strings"
	"unicode"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// grammarOf maps a code fence's info string to a grammar name of treesitter.Grammar.
var grammarOf = map[string]string{
	"go": "go", "golang": "go",
	"python": "python", "py": "python", "python3": "python",
	"typescript": "typescript", "ts": "typescript", "tsx": "tsx",
	"javascript": "javascript", "js": "javascript", "jsx": "javascript", "mjs": "javascript", "cjs": "javascript",
	"json": "javascript", "jsonc": "javascript",
	"c#": "csharp", "cs": "csharp", "csharp": "csharp",
	"ruby": "ruby", "rb": "ruby", "php": "php", "rust": "rust", "rs": "rust", "java": "java",
	"c": "c", "h": "c", "cpp": "cpp", "c++": "cpp", "cc": "cpp", "hpp": "cpp",
}

// highlight returns the styles of code's bytes, one per byte (plain where nothing
// applies), from a tree-sitter parse of lang; nil when lang has no grammar.
func highlight(lang, code string) []style {
	name, ok := grammarOf[strings.ToLower(lang)]
	if !ok {
		return nil
	}
	grammar, ok := treesitter.Grammar(name)
	if !ok {
		return nil
	}
	p := sitter.NewParser()
	defer p.Close()
	if p.SetLanguage(grammar) != nil {
		return nil
	}
	src := []byte(code)
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil
	}
	defer tree.Close()
	styles := make([]style, len(src))
	for i := range styles {
		styles[i] = plain
	}
	paint(tree.RootNode(), src, styles)
	return styles
}

// paint colours the leaves under n (and whole strings and comments).
func paint(n *sitter.Node, src []byte, styles []style) {
	if st, ok := styleOf(n); ok {
		for i := n.StartByte(); i < n.EndByte() && int(i) < len(styles); i++ {
			styles[i] = st
		}
		return
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		paint(n.Child(i), src, styles)
	}
}

// styleOf is the style of a node by its kind, where the kind says enough: comments,
// strings and numbers whole, keywords (unnamed alphabetic tokens), type names and
// the constants every language spells alike.
func styleOf(n *sitter.Node) (style, bool) {
	kind := n.Kind()
	switch {
	case strings.Contains(kind, "comment"):
		return style{fg: colComment, italic: true}, true
	case strings.Contains(kind, "string") || kind == "char_literal" || kind == "rune_literal" || kind == "character_literal" || kind == "template_string":
		return fg(colString), true
	case kind == "number" || kind == "integer" || kind == "float" || strings.HasSuffix(kind, "int_literal") ||
		strings.HasSuffix(kind, "float_literal") || kind == "integer_literal" || kind == "number_literal" || kind == "decimal_integer_literal":
		return fg(colNumber), true
	case kind == "true" || kind == "false" || kind == "nil" || kind == "null" || kind == "none" || kind == "None" || kind == "True" || kind == "False" || kind == "undefined":
		return fg(colNumber), true
	case kind == "type_identifier" || kind == "primitive_type" || kind == "predefined_type" || kind == "builtin_type":
		return fg(colType), true
	case !n.IsNamed() && n.ChildCount() == 0 && isWord(kind):
		return style{fg: colKeyword, bold: true}, true
	}
	return style{}, false
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && r != '_' {
			return false
		}
	}
	return true
}

// diffStyle colours the lines of a diff by their first character.
func diffStyle(line string) style {
	switch {
	case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
		return style{bold: true, fg: -1}
	case strings.HasPrefix(line, "+"):
		return fg(colAdded)
	case strings.HasPrefix(line, "-"):
		return fg(colRemoved)
	case strings.HasPrefix(line, "@@"):
		return fg(colLink)
	}
	return plain
}
