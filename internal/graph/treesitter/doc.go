package treesitter

import (
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// doc is a definition's documentation: its Python docstring when the spec reads
// them, else the comment block right above it (no blank line between), or above the
// statement that wraps it (`export`, a decorator list, `const`).
func (w *walker) doc(n *sitter.Node, rule *DefRule) string {
	if w.spec.Docstring && rule.BodyField != "" {
		if b := n.ChildByFieldName(rule.BodyField); b != nil && b.NamedChildCount() > 0 {
			if st := b.NamedChild(0); st.Kind() == "expression_statement" && st.NamedChildCount() > 0 {
				if s := st.NamedChild(0); s.Kind() == "string" {
					return clip(docstringText(text(s, w.src)), maxDoc)
				}
			}
		}
	}
	anchor := n
	for p := anchor.Parent(); p != nil && slices.Contains(w.spec.DocWrappers, p.Kind()); p = anchor.Parent() {
		// The second declarator of `const a = 1, b = 2` has no comment of its own;
		// a C++ class after its `template <…>` header has the template's.
		if prev := anchor.PrevNamedSibling(); p.Kind() != "decorated_definition" && prev != nil && prev.Kind() == anchor.Kind() {
			break
		}
		anchor = p
	}
	if len(w.spec.DocHolders) > 0 && anchor.PrevSibling() == nil {
		if p := anchor.Parent(); p != nil && slices.Contains(w.spec.DocHolders, p.Kind()) {
			anchor = p
		}
	}
	var block []*sitter.Node
	next := anchor.StartPosition().Row
	for c := anchor.PrevSibling(); c != nil; c = c.PrevSibling() {
		skip := slices.Contains(w.spec.DocSkip, c.Kind())
		if (!skip && !slices.Contains(w.spec.Comments, c.Kind())) || lastRow(c)+1 < next {
			break
		}
		if !skip {
			block = append(block, c)
		}
		next = c.StartPosition().Row
	}
	if len(block) == 0 {
		return ""
	}
	slices.Reverse(block)
	start, end := block[0].StartByte(), block[len(block)-1].EndByte()
	if end-start > 4*maxDoc {
		start = end - 4*maxDoc
	}
	return clip(commentText(strings.ToValidUTF8(string(w.src[start:end]), "\uFFFD")), maxDoc)
}

// lastRow is the last row that holds n's text: a Rust line comment ends at the
// start of the next row, having taken its newline.
func lastRow(n *sitter.Node) uint {
	end := n.EndPosition()
	if end.Column == 0 && end.Row > n.StartPosition().Row {
		return end.Row - 1
	}
	return end.Row
}
