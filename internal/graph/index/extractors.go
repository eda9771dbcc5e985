package index

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/infra"
	"github.com/etalab-ia/albert-code/internal/graph/textref"
)

// builtin are the extractors of the files that are not code for tree-sitter:
// they are part of every build, so Options.Extract is not asked about them.
var builtin = map[string]FileExtractor{
	"dockerfile": infra.Dockerfile,
	"yaml":       infra.YAML,
	"markdown":   textref.Markdown,
	"shell":      textref.Shell,
}

// extractSource runs the extractor of lang on src: a builtin one, else extract.
// A file that is not valid UTF-8 (a Latin-1 comment, a stray byte) is read as
// Latin-1, every byte a character, so that names stay valid text and lines stay
// where they were; its facts say so in ParseError, which lists it as partial.
func extractSource(ctx context.Context, rel, lang string, src []byte, extract FileExtractor) (graph.FileFacts, error) {
	if b := builtin[lang]; b != nil {
		extract = b
	}
	notUTF8 := !utf8.Valid(src)
	if notUTF8 {
		src = latin1(src)
	}
	facts, err := extract(ctx, rel, lang, src)
	if err != nil || !notUTF8 {
		return facts, err
	}
	note := because(WhyNotUTF8, "read as Latin-1")
	if facts.ParseError != "" {
		note += "; " + facts.ParseError
	}
	facts.ParseError = note
	return facts, nil
}

// latin1 decodes src as ISO 8859-1 into UTF-8.
func latin1(src []byte) []byte {
	var b strings.Builder
	b.Grow(len(src) + len(src)/8)
	for _, c := range src {
		b.WriteRune(rune(c))
	}
	return []byte(b.String())
}
