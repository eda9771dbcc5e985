// Package treesitter extracts graph facts from one source file through tree-sitter:
// definitions, containment, calls and bases resolved within the file, and the call
// sites, bases and imports left for the cross-file pass. What each language yields
// is a Spec table (spec_*.go); the walker that reads the tables is shared.
//
// QNames are `<rel path>::<scope>::<name>`, scopes joined with `::`
// (`src/app.py::Server::handle`), for every language including Go: the type-checked
// Go path (internal/graph/golang) names by import path, this fallback by file. When
// two definitions in one file share a QName (a Python redefinition, TypeScript
// overloads, a getter and its setter) the first one is the node; the later ones add
// nothing but their calls, which are attributed to that node.
package treesitter

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// DefaultBudget bounds the time spent on one file, parse and walk together: the
// figure issue 3 sets (and the peer engine's PARSE_TIMEOUT_MICROS).
const DefaultBudget = 5 * time.Second

// ErrNoSpec is returned for a language that has no extraction table yet (or no
// grammar at all): such a file yields no facts rather than empty ones that would
// pretend the file defines nothing.
var ErrNoSpec = errors.New("no tree-sitter extraction spec for this language")

// Extractor extracts the facts of one file at a time. The zero value is ready to use
// and safe for concurrent use.
type Extractor struct {
	// Budget bounds the time spent on one file; zero means DefaultBudget. A file over
	// budget is quarantined.
	Budget time.Duration
}

// Extract is Extractor{}.Extract.
func Extract(ctx context.Context, rel, lang string, src []byte) (graph.FileFacts, error) {
	return Extractor{}.Extract(ctx, rel, lang, src)
}

// Languages lists the languages Extract has a spec for.
func Languages() []string {
	out := make([]string, 0, len(specs))
	for l := range specs {
		if grammars[l] != nil {
			out = append(out, l)
		}
	}
	return out
}

// Extract reads the file at repository-relative path rel, written in lang (named as
// internal/graph/index names languages), whose content is src.
//
// A file with syntax errors yields what parsed, with ParseError naming the first
// error's line. A file whose parse or walk panics or exceeds the budget is
// Quarantined, with the reason in ParseError and no nodes; that is not an error.
// The error is for a language without a spec (ErrNoSpec) and for a cancelled ctx.
func (e Extractor) Extract(ctx context.Context, rel, lang string, src []byte) (graph.FileFacts, error) {
	spec, grammar := specs[lang], grammars[lang]
	if (lang == "c" || lang == "cpp") && IsObjCHeader(rel, src) { // the facts keep the index's language
		spec, grammar = specs["objc"], grammars["objc"]
	}
	if spec == nil || grammar == nil {
		return graph.FileFacts{}, fmt.Errorf("extract %s: language %q: %w", rel, lang, ErrNoSpec)
	}
	budget := e.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	return extract(ctx, rel, lang, src, spec, grammar, budget)
}

// errBudget stops a walk that ran out of time.
var errBudget = errors.New("over budget")

func extract(ctx context.Context, rel, lang string, src []byte, spec *Spec, grammar *sitter.Language, budget time.Duration) (ff graph.FileFacts, err error) {
	sum := sha256.Sum256(src)
	ff = graph.FileFacts{Path: rel, Language: lang, Hash: hex.EncodeToString(sum[:]), Size: int64(len(src))}
	quarantine := func(reason string) {
		ff.Nodes, ff.Edges, ff.Unresolved = nil, nil, nil
		ff.Quarantined, ff.ParseError = true, reason
	}
	defer func() {
		if r := recover(); r != nil {
			quarantine(fmt.Sprintf("tree-sitter extraction panicked: %v", r))
			err = nil
		}
	}()

	if spec.Rewrite != nil {
		src = spec.Rewrite(src)
	}
	deadline := time.Now().Add(budget)
	parser := sitter.NewParser()
	defer parser.Close()
	if err := parser.SetLanguage(grammar); err != nil {
		return graph.FileFacts{}, fmt.Errorf("extract %s: set %s grammar: %w", rel, lang, err)
	}
	parse := func(src []byte) *sitter.Tree {
		n := len(src)
		return parser.ParseWithOptions(func(i int, _ sitter.Point) []byte {
			if i < n {
				return src[i:]
			}
			return nil
		}, nil, &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool {
			return ctx.Err() != nil || time.Now().After(deadline)
		}})
	}
	tree := parse(src)
	if tree != nil && tree.RootNode().HasError() && spec.Repair != nil {
		if fixed := spec.Repair(src); string(fixed) != string(src) {
			if t := parse(fixed); t != nil && errorBytes(t.RootNode()) < errorBytes(tree.RootNode()) {
				tree.Close()
				tree, src = t, fixed
			} else if t != nil {
				t.Close()
			}
		}
	}
	if tree == nil {
		if err := ctx.Err(); err != nil {
			return graph.FileFacts{}, fmt.Errorf("extract %s: %w", rel, err)
		}
		quarantine(fmt.Sprintf("tree-sitter parse exceeded the %s budget", budget))
		return ff, nil
	}
	defer tree.Close()

	root := tree.RootNode()
	w := newWalker(ctx, spec, rel, lang, src, deadline)
	ff.Nodes = append(ff.Nodes, graph.Node{
		QName: rel, Kind: graph.KindFile, Name: path.Base(rel), File: rel,
		Line: 1, EndLine: int(root.EndPosition().Row) + 1, Language: lang,
	})
	w.ff = &ff
	w.walk(root, nil, 0)
	if w.stop != nil {
		if err := ctx.Err(); err != nil {
			return graph.FileFacts{}, fmt.Errorf("extract %s: %w", rel, err)
		}
		quarantine(fmt.Sprintf("tree-sitter extraction exceeded the %s budget", budget))
		return ff, nil
	}
	w.resolve()
	if root.HasError() {
		ff.ParseError = fmt.Sprintf("syntax error at line %d; facts are partial", firstErrorLine(root))
	} else if w.tooDeep {
		ff.ParseError = fmt.Sprintf("syntax nested deeper than %d levels was not read; facts are partial", maxDepth)
	}
	return ff, nil
}

// firstErrorLine finds the first ERROR or MISSING node, descending only where
// HasError says one is.
func firstErrorLine(n *sitter.Node) int {
	for {
		if n.IsError() || n.IsMissing() {
			return int(n.StartPosition().Row) + 1
		}
		var next *sitter.Node
		for i := uint(0); i < n.ChildCount(); i++ {
			if c := n.Child(i); c.HasError() {
				next = c
				break
			}
		}
		if next == nil {
			return int(n.StartPosition().Row) + 1
		}
		n = next
	}
}

// errorBytes measures how much of the tree under n failed to parse: the bytes
// ERROR nodes span, and one for each MISSING node. A file read as one ERROR
// from its first line counts as broken as it is.
func errorBytes(n *sitter.Node) uint {
	switch {
	case n.IsError():
		return max(n.EndByte()-n.StartByte(), 1)
	case n.IsMissing():
		return 1
	}
	var sum uint
	for i := uint(0); i < n.ChildCount(); i++ {
		if c := n.Child(i); c.HasError() {
			sum += errorBytes(c)
		}
	}
	return sum
}
