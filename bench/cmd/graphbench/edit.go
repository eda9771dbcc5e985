package main

import (
	"bytes"
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// The two one-file changes of the incremental phase. Both are found and checked
// with the floor's tree-sitter grammars, so they work the same in every language
// and never leave a syntax error behind.

// bodyStatement is a statement that changes a function body and nothing else
// (n makes each edit's content, and so its hash, new).
func bodyStatement(lang string, n int) string {
	switch lang {
	case "go":
		return fmt.Sprintf(" _ = %d;", n)
	case "python":
		return fmt.Sprintf("_bench_edit = %d\n", n)
	default:
		return fmt.Sprintf(" void %d;", n)
	}
}

// editBody inserts a statement at the start of the body of the function whose
// name is on line (1-based). It reports false when no such function with a
// block body is found there, or when the edit would not parse cleanly.
func editBody(src []byte, lang string, line, n int) ([]byte, bool) {
	grammar := floorGrammars[lang]
	if grammar == nil {
		return nil, false
	}
	tree := parse(grammar, src)
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		return nil, false
	}
	body := bodyAt(root, uint(line-1))
	if body == nil {
		return nil, false
	}
	var at int
	stmt := bodyStatement(lang, n)
	if lang == "python" {
		// Before the first statement, at its indentation: the text before it on
		// its line must be indentation only (not `def f(): pass`).
		at = int(body.StartByte())
		lineStart := bytes.LastIndexByte(src[:at], '\n') + 1
		indent := string(src[lineStart:at])
		if strings.TrimSpace(indent) != "" {
			return nil, false
		}
		stmt += indent
	} else {
		at = int(body.StartByte()) + 1 // just after the opening brace
		if src[at-1] != '{' {
			return nil, false
		}
	}
	out := make([]byte, 0, len(src)+len(stmt))
	out = append(append(append(out, src[:at]...), stmt...), src[at:]...)
	if !parsesCleanly(grammar, out) {
		return nil, false
	}
	return out, true
}

// bodyAt finds the block body of the function or method whose name is on row.
func bodyAt(n *sitter.Node, row uint) *sitter.Node {
	if n.StartPosition().Row > row || n.EndPosition().Row < row {
		return nil
	}
	name, body := n.ChildByFieldName("name"), n.ChildByFieldName("body")
	if name != nil && body != nil && name.StartPosition().Row == row && !strings.Contains(n.Kind(), "class") {
		switch body.Kind() {
		case "block", "statement_block":
			return body
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if b := bodyAt(n.NamedChild(i), row); b != nil {
			return b
		}
	}
	return nil
}

// addedName is the function addFunction adds for change n.
func addedName(lang string, n int) string {
	if lang == "python" {
		return fmt.Sprintf("bench_added_%d", n)
	}
	return fmt.Sprintf("BenchAdded%d", n)
}

// addFunction appends a new top-level function to the file.
func addFunction(src []byte, lang string, n int) ([]byte, bool) {
	grammar := floorGrammars[lang]
	if grammar == nil || !parsesCleanly(grammar, src) {
		return nil, false
	}
	name := addedName(lang, n)
	var fn string
	switch lang {
	case "go":
		fn = fmt.Sprintf("\nfunc %s() int { return %d }\n", name, n)
	case "python":
		fn = fmt.Sprintf("\n\ndef %s():\n    return %d\n", name, n)
	default:
		fn = fmt.Sprintf("\nfunction %s() { return %d; }\n", name, n)
	}
	out := bytes.Clone(src)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, fn...)
	if !parsesCleanly(grammar, out) {
		return nil, false
	}
	return out, true
}

func parse(grammar *sitter.Language, src []byte) *sitter.Tree {
	p := sitter.NewParser()
	defer p.Close()
	_ = p.SetLanguage(grammar) // the floor's grammars are built with this library's ABI
	return p.Parse(src, nil)
}

func parsesCleanly(grammar *sitter.Language, src []byte) bool {
	tree := parse(grammar, src)
	defer tree.Close()
	return !tree.RootNode().HasError()
}
