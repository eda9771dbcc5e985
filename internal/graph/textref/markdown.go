// Package textref reads the files that point at other files without being code
// for tree-sitter: Markdown (its headings, and its links and images to files of
// the repository) and shell scripts (the files they `source`, their functions and
// the calls between them). Every reference is a file-to-file edge the graph's
// questions follow; one whose target is not in the index is a broken link, found
// with `graph sql` (docs/graph-schema.md).
package textref

import (
	"bytes"
	"context"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// confLink is the confidence of a link's edge: the link names its target.
const confLink = 1.0

// SectionQName names a Markdown heading of file rel by its anchor, as a link
// writes it: `docs/graph.md::#indexing`.
func SectionQName(rel, anchor string) string { return rel + "::#" + anchor }

// Markdown reads a Markdown file: each heading is a section node named by its
// GitHub anchor (`## Cross-file resolution` is `#cross-file-resolution`; a
// repeated one gets `-1`, `-2`), contained in the file; each link or image whose
// target is a path (not a URL) is a references edge from the file to the target
// file, or to the target's section when the link has an anchor (`graph.md#sql`,
// `#sql` in the same file). A path is relative to the file's folder, or to the
// repository's root when it starts with `/`; a path that leaves the repository
// stays unresolved. Code spans and fenced blocks are not read for links.
func Markdown(ctx context.Context, rel, lang string, src []byte) (graph.FileFacts, error) {
	lines := newLineIndex(src)
	ff := graph.FileFacts{Path: rel, Language: lang, Size: int64(len(src))}
	ff.Nodes = append(ff.Nodes, graph.Node{QName: rel, Kind: graph.KindFile, Name: path.Base(rel), File: rel,
		Line: 1, EndLine: lines.count(), Language: lang})
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	seen := map[string]int{}
	var sections []int // indexes in ff.Nodes, for their end lines
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if err := ctx.Err(); err != nil {
			return ast.WalkStop, err
		}
		switch n := n.(type) {
		case *ast.Heading:
			title := plainText(n, src)
			anchor := slug(title)
			if k := seen[anchor]; k > 0 {
				seen[anchor]++
				anchor += "-" + strconv.Itoa(k)
			} else {
				seen[anchor] = 1
			}
			line := lines.of(offsetOf(n))
			q := SectionQName(rel, anchor)
			ff.Nodes = append(ff.Nodes, graph.Node{QName: q, Kind: graph.KindSection, Name: "#" + anchor, File: rel,
				Line: line, EndLine: line, Signature: strings.Repeat("#", n.Level) + " " + title, Language: lang, Exported: true})
			ff.Edges = append(ff.Edges, graph.Edge{From: rel, To: q, Kind: graph.EdgeContains, Confidence: confLink,
				Resolution: graph.ResolvedName, File: rel, Line: line})
			sections = append(sections, len(ff.Nodes)-1)
		case *ast.Link:
			link(&ff, string(n.Destination), lines.of(offsetOf(n)))
		case *ast.Image:
			link(&ff, string(n.Destination), lines.of(offsetOf(n)))
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return graph.FileFacts{}, err
	}
	// A section runs to the line before the next heading, the last to the end.
	for i, idx := range sections {
		end := lines.count()
		if i+1 < len(sections) {
			end = max(ff.Nodes[sections[i+1]].Line-1, ff.Nodes[idx].Line)
		}
		ff.Nodes[idx].EndLine = end
	}
	return ff, nil
}

// link adds the edge of one link destination, or nothing for a URL.
func link(ff *graph.FileFacts, dest string, line int) {
	if dest == "" || strings.HasPrefix(dest, "//") {
		return
	}
	if u, err := url.Parse(dest); err == nil && u.Scheme != "" {
		return // http:, mailto:, a Windows drive letter is no repository path either
	}
	p, anchor, _ := strings.Cut(dest, "#")
	if q := strings.IndexByte(p, '?'); q >= 0 {
		p = p[:q]
	}
	if dec, err := url.PathUnescape(p); err == nil {
		p = dec
	}
	rel := ff.Path
	target := rel
	if p != "" {
		var ok bool
		if target, ok = Resolve(rel, p); !ok {
			ff.Unresolved = append(ff.Unresolved, graph.Unresolved{From: rel, Name: dest, Kind: graph.EdgeReferences,
				File: rel, Line: line, Reason: "a path outside the repository"})
			return
		}
	}
	to := target
	if anchor != "" && isMarkdown(target) {
		to = SectionQName(target, strings.ToLower(anchor))
	}
	if to == rel {
		return // a link to the file itself says nothing
	}
	ff.Edges = append(ff.Edges, graph.Edge{From: rel, To: to, Kind: graph.EdgeReferences, Confidence: confLink,
		Resolution: graph.ResolvedName, File: rel, Line: line})
}

// Resolve turns a path written in file rel into a repository path: relative to
// rel's folder, or to the root when it starts with `/`. ok is false when the
// path leaves the repository.
func Resolve(rel, written string) (string, bool) {
	var p string
	if strings.HasPrefix(written, "/") {
		p = path.Clean(strings.TrimLeft(written, "/"))
	} else {
		p = path.Clean(path.Join(path.Dir(rel), written))
	}
	if p == ".." || strings.HasPrefix(p, "../") || p == "." {
		return "", false
	}
	return p, true
}

func isMarkdown(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown":
		return true
	}
	return false
}

// slug is GitHub's anchor of a heading: lower case, letters, digits, `-` and `_`
// kept, spaces made `-`, everything else dropped.
func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// plainText is a heading's text without its markup.
func plainText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if tx, ok := t.(*ast.Text); ok {
					b.Write(tx.Segment.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

// offsetOf is where a node's text starts: its first text descendant's, else its
// first line's, else its parent block's.
func offsetOf(n ast.Node) int {
	for c := n; c != nil; c = c.Parent() {
		if off, ok := firstText(c, 0); ok {
			return off
		}
		if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			return c.Lines().At(0).Start
		}
	}
	return 0
}

func firstText(n ast.Node, depth int) (int, bool) {
	if t, ok := n.(*ast.Text); ok {
		return t.Segment.Start, true
	}
	if depth > 16 {
		return 0, false
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if off, ok := firstText(c, depth+1); ok {
			return off, true
		}
	}
	return 0, false
}

// lineIndex turns byte offsets into 1-based line numbers.
type lineIndex []int // the offsets where lines start

func newLineIndex(src []byte) lineIndex {
	idx := lineIndex{0}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (l lineIndex) of(off int) int { return sort.SearchInts(l, off+1) }

func (l lineIndex) count() int { return len(l) }
