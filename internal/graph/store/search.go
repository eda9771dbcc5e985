package store

import (
	"context"
	"sort"
	"strings"
	"unicode"

	"github.com/etalab-ia/albert-code/internal/editdist"
)

// Hit is one full-text search result.
type Hit struct {
	QName     string `json:"qualified_name"`
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Signature string `json:"signature,omitempty"`
	// Score is SQLite's BM25 negated: higher is better. Comparable within one
	// answer only.
	Score float64 `json:"score"`
}

// bm25Weights rank a match in the name above one in the qualified name, the
// signature, then the doc comment and the path. Judgement, checked by
// TestSearchRanking: a symbol named after the query outranks one whose doc mentions it.
const bm25Weights = `10.0, 4.0, 2.0, 1.0, 1.0`

// Search ranks nodes by BM25 over their name, qualified name, signature, doc and
// path. The query is free text: only its words are used (split like identifiers, so
// parseConfig looks for parseconfig, parse and config), any one of which may match,
// and FTS5 syntax in it has no effect. A query without words returns no hits.
func (s *Store) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	match := matchExpression(query)
	if match == "" {
		return nil, nil
	}
	limit = clampLimit(limit, 20, 1000)
	rows, err := s.reader().QueryContext(ctx, `SELECT n.qname, n.kind, n.name, n.file, n.line, n.signature,
			bm25(search, `+bm25Weights+`) AS score
		FROM search JOIN nodes n ON n.rowid = search.rowid
		WHERE search MATCH ?
		ORDER BY score, n.qname
		LIMIT ?`, match, limit)
	if err != nil {
		return nil, s.wrap("search "+query, err)
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.QName, &h.Kind, &h.Name, &h.File, &h.Line, &h.Signature, &h.Score); err != nil {
			return nil, s.wrap("search "+query, err)
		}
		h.Score = -h.Score
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("search "+query, err)
	}
	return hits, nil
}

func clampLimit(n, def, max int) int {
	if n <= 0 {
		return def
	}
	return min(n, max)
}

// matchExpression turns free text into an FTS5 MATCH expression that cannot be a
// syntax error: every term is letters and digits only, double-quoted, OR-ed.
// Terms of three letters or more also match as a prefix; the exact term matching
// too ranks an exact word above a longer one.
func matchExpression(query string) string {
	var parts []string
	for _, t := range queryTerms(query) {
		parts = append(parts, `"`+t+`"`)
		if len([]rune(t)) >= 3 {
			parts = append(parts, `"`+t+`"*`)
		}
	}
	return strings.Join(parts, " OR ")
}

// queryTerms is the lower-cased words of query and their identifier parts, each once.
func queryTerms(query string) []string {
	seen := map[string]bool{}
	var terms []string
	add := func(t string) {
		t = strings.ToLower(t)
		if t != "" && !seen[t] {
			seen[t] = true
			terms = append(terms, t)
		}
	}
	for _, w := range words(query) {
		add(w)
		for _, p := range identifierParts(w) {
			add(p)
		}
	}
	return terms
}

// words splits s into runs of letters and digits, as FTS5's unicode61 tokenizer
// does ('_' separates).
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// identifierParts splits a word on camelCase: HTTPServer → HTTP, Server;
// parseConfig2Go → parse, Config2, Go. A word of one part returns nil.
func identifierParts(w string) []string {
	rs := []rune(w)
	var parts []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		lowerToUpper := (unicode.IsLower(prev) || unicode.IsDigit(prev)) && unicode.IsUpper(cur)
		acronymEnd := unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		digitToLower := unicode.IsDigit(prev) && unicode.IsLower(cur)
		if lowerToUpper || acronymEnd || digitToLower {
			parts = append(parts, string(rs[start:i]))
			start = i
		}
	}
	if start == 0 {
		return nil
	}
	return append(parts, string(rs[start:]))
}

// expandIdentifiers is the text a search column holds: s itself, then the parts of
// each of its camelCase words, so that the tokenizer indexes both parseconfig and
// parse, config.
func expandIdentifiers(s string) string {
	var b strings.Builder
	b.WriteString(s)
	for _, w := range words(s) {
		for _, p := range identifierParts(w) {
			b.WriteByte(' ')
			b.WriteString(p)
		}
	}
	return b.String()
}

// Suggest proposes qualified names for a symbol that was not found: nodes whose
// name is within a small edit distance of the symbol's last segment (ignoring
// case), then nodes whose name starts with it. At most limit names (5 when limit
// is not positive), nearest first.
func (s *Store) Suggest(ctx context.Context, symbol string, limit int) ([]string, error) {
	limit = clampLimit(limit, 5, 100)
	name := lastSegment(symbol)
	if name == "" {
		return nil, nil
	}
	lname := strings.ToLower(name)
	maxDist := maxEditDistance(len([]rune(lname)))

	type cand struct {
		name string
		dist int
	}
	var cands []cand
	seen := map[string]bool{}
	n := len([]rune(name))
	rows, err := s.reader().QueryContext(ctx,
		`SELECT DISTINCT name FROM nodes WHERE length(name) BETWEEN ? AND ?`, n-maxDist, n+maxDist)
	if err != nil {
		return nil, s.wrap("suggest "+symbol, err)
	}
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			rows.Close()
			return nil, s.wrap("suggest "+symbol, err)
		}
		if d := editdist.Distance(lname, strings.ToLower(c)); d <= maxDist {
			cands = append(cands, cand{c, d})
			seen[c] = true
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, s.wrap("suggest "+symbol, err)
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].dist != cands[j].dist {
			return cands[i].dist < cands[j].dist
		}
		return cands[i].name < cands[j].name
	})

	// Prefix matches through the full-text index: ParseConf → ParseConfig.
	if match := prefixExpression(name); match != "" {
		prefixed, err := s.column(ctx, `SELECT DISTINCT n.name FROM search JOIN nodes n ON n.rowid = search.rowid
			WHERE search MATCH ? ORDER BY length(n.name), n.name LIMIT ?`, match, limit)
		if err != nil {
			return nil, s.wrap("suggest "+symbol, err)
		}
		for _, c := range prefixed {
			if !seen[c] {
				cands = append(cands, cand{c, maxDist + 1})
				seen[c] = true
			}
		}
	}

	var out []string
	for _, c := range cands {
		qnames, err := s.column(ctx, `SELECT qname FROM nodes WHERE name = ? ORDER BY qname LIMIT ?`, c.name, limit-len(out))
		if err != nil {
			return nil, s.wrap("suggest "+symbol, err)
		}
		out = append(out, qnames...)
		if len(out) >= limit {
			break
		}
	}
	return out, nil
}

// prefixExpression matches names starting with name, as one word or part by part.
func prefixExpression(name string) string {
	ws := words(name)
	if len(ws) != 1 {
		return ""
	}
	expr := `name : "` + strings.ToLower(ws[0]) + `"*`
	if parts := identifierParts(ws[0]); len(parts) > 1 {
		q := make([]string, len(parts))
		for i, p := range parts {
			q[i] = `"` + strings.ToLower(p) + `"*`
		}
		expr = `name : ("` + strings.ToLower(ws[0]) + `"* OR (` + strings.Join(q, " AND ") + `))`
	}
	return expr
}

// column runs a query returning one text column.
func (s *Store) column(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := s.reader().QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// lastSegment is the short name in a qualified one: after the last '.', "::", '/'
// or '#'.
func lastSegment(symbol string) string {
	i := strings.LastIndexAny(symbol, ".:/#")
	return strings.TrimSpace(symbol[i+1:])
}

// maxEditDistance allows one typo per four characters, at least one, at most three.
// Judgement: beyond that, suggestions stop resembling what was typed.
func maxEditDistance(n int) int {
	return max(1, min(3, n/4))
}
