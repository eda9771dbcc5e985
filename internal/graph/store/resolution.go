package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// This file serves the cross-file resolution pass (internal/graph/resolve): what
// it reads (files, sites, a file's own edges, definition counts, its dependency
// records) and how it writes its results, one transaction per pass.

// PassFile is an indexed file as the resolution pass sees it.
type PassFile struct {
	Path     string
	Language string
	// Typed says the Go type checker wrote the file's facts: they are exact, the
	// pass leaves them alone.
	Typed bool
}

// PassFiles lists every indexed file, ordered by path.
func (s *Store) PassFiles(ctx context.Context) ([]PassFile, error) {
	rows, err := s.reader().QueryContext(ctx, `SELECT path, language, typed FROM files ORDER BY path`)
	if err != nil {
		return nil, s.wrap("list files to resolve", err)
	}
	defer rows.Close()
	var out []PassFile
	for rows.Next() {
		var f PassFile
		if err := rows.Scan(&f.Path, &f.Language, &f.Typed); err != nil {
			return nil, s.wrap("list files to resolve", err)
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("list files to resolve", err)
	}
	return out, nil
}

// Pending is a path ReplaceFiles replaced or removed since the pass last ran.
type Pending struct {
	Path string
	// Shape, set by the pass, is recorded by ApplyResolution for a file that
	// still exists (see ShapesBefore).
	Shape string
	// ticket identifies this replacement: a later one of the same path is a new
	// ticket, which ApplyResolution leaves pending.
	ticket int64
}

// PendingFiles lists the paths replaced or removed since the pass last cleared them.
func (s *Store) PendingFiles(ctx context.Context) ([]Pending, error) {
	rows, err := s.reader().QueryContext(ctx, `SELECT rowid, path FROM resolve_pending ORDER BY path`)
	if err != nil {
		return nil, s.wrap("list pending files", err)
	}
	defer rows.Close()
	var out []Pending
	for rows.Next() {
		var p Pending
		if err := rows.Scan(&p.ticket, &p.Path); err != nil {
			return nil, s.wrap("list pending files", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("list pending files", err)
	}
	return out, nil
}

// NamesBefore lists the names the files defined when the pass last saw them.
func (s *Store) NamesBefore(ctx context.Context, files []string) ([]string, error) {
	return s.stringsIn(ctx, "names before", `SELECT DISTINCT name FROM resolve_names WHERE file IN (SELECT id FROM strings WHERE text IN (%s))`, files)
}

// SeenBefore lists which of paths the pass knew when it last ran (the others are
// new since).
func (s *Store) SeenBefore(ctx context.Context, paths []string) ([]string, error) {
	return s.stringsIn(ctx, "paths seen before", `SELECT s.text FROM strings s WHERE s.text IN (%s)
		AND EXISTS (SELECT 1 FROM resolve_names r WHERE r.file = s.id)`, paths)
}

// ShapesBefore returns the shapes the pass recorded for paths when it last saw
// them (a digest of what other files can read of each), by path.
func (s *Store) ShapesBefore(ctx context.Context, paths []string) (map[string]string, error) {
	out := map[string]string{}
	err := inChunks(paths, func(chunk []any, marks string) error {
		rows, err := s.reader().QueryContext(ctx, `SELECT file, shape FROM resolve_shapes WHERE file IN (`+marks+`)`, chunk...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var f, sh string
			if err := rows.Scan(&f, &sh); err != nil {
				return err
			}
			out[f] = sh
		}
		return rows.Err()
	})
	if err != nil {
		return nil, s.wrap("read shapes", err)
	}
	return out, nil
}

// NamesNow lists the names the files define now.
func (s *Store) NamesNow(ctx context.Context, files []string) ([]string, error) {
	return s.stringsIn(ctx, "names now", `SELECT DISTINCT name FROM nodes WHERE file IN (%s) AND kind <> 'file'`, files)
}

// DepKind says what a file's resolution depends on.
type DepKind string

const (
	// DepFile: the content of the file at Key (its definitions, its imports).
	DepFile DepKind = "file"
	// DepModule: whether a file whose module name is Key exists (an import that
	// did not resolve, or resolved among candidates, could change when one appears).
	DepModule DepKind = "module"
	// DepName: how many definitions named Key, of the languages and kinds in Filter,
	// exist; Seen is the count the resolution saw.
	DepName DepKind = "name"
)

// Dep is one thing a file's cross-file resolution read. File is the dependent
// file (set when read back).
type Dep struct {
	File   string
	Kind   DepKind
	Key    string
	Filter string
	Seen   int
}

// Dependents lists the dependency records of kind whose key is one of keys.
func (s *Store) Dependents(ctx context.Context, kind DepKind, keys []string) ([]Dep, error) {
	var out []Dep
	err := inChunks(keys, func(chunk []any, marks string) error {
		rows, err := s.reader().QueryContext(ctx, `SELECT file, key, filter, seen FROM resolve_deps
			WHERE kind = ? AND key IN (`+marks+`)`, append([]any{string(kind)}, chunk...)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			d := Dep{Kind: kind}
			if err := rows.Scan(&d.File, &d.Key, &d.Filter, &d.Seen); err != nil {
				return err
			}
			out = append(out, d)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, s.wrap("read dependents", err)
	}
	return out, nil
}

// Sites returns the unresolved sites of file as the extractor wrote them (before
// the pass), ordered by position; every file's, ordered by file, when file is "".
func (s *Store) Sites(ctx context.Context, file string) ([]graph.Unresolved, error) {
	query, args := `SELECT src, name, kind, file, line, col, reason FROM sites`, []any{}
	if file != "" {
		query, args = query+` WHERE file = ?`, append(args, file)
	}
	return s.siteRows(ctx, "sites of "+file, query+` ORDER BY file, line, col, name`, args...)
}

// ExtractedEdges returns the edges of the given kinds that the extractor wrote in
// file (not the pass's), ordered by line; every file's, ordered by file, when
// file is "".
func (s *Store) ExtractedEdges(ctx context.Context, file string, kinds ...graph.EdgeKind) ([]graph.Edge, error) {
	var args []any
	marks := make([]string, len(kinds))
	for i, k := range kinds {
		args, marks[i] = append(args, string(k)), "?"
	}
	query := `SELECT ` + edgeColumns + ` FROM edges
		WHERE NOT derived AND kind IN (` + strings.Join(marks, ", ") + `)`
	if file != "" {
		query, args = query+` AND file = ?`, append(args, file)
	}
	return s.edges(ctx, "edges of "+file, query+` ORDER BY file, line, src, dst`, args...)
}

// PassNodes returns every node with what the pass reads of it (qualified name,
// kind, name, file, line, language, exported, signature: Go's declared types),
// ordered by file then qualified name: one query where a full pass would
// otherwise ask file by file.
func (s *Store) PassNodes(ctx context.Context) ([]graph.Node, error) {
	rows, err := s.reader().QueryContext(ctx, `SELECT qname, kind, name, file, line, language, exported, signature FROM nodes ORDER BY file, qname`)
	if err != nil {
		return nil, s.wrap("read nodes", err)
	}
	defer rows.Close()
	var out []graph.Node
	for rows.Next() {
		var n graph.Node
		var kind string
		if err := rows.Scan(&n.QName, &kind, &n.Name, &n.File, &n.Line, &n.Language, &n.Exported, &n.Signature); err != nil {
			return nil, s.wrap("read nodes", err)
		}
		n.Kind = graph.NodeKind(kind)
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("read nodes", err)
	}
	return out, nil
}

// CountDefinitions counts the exported definitions named name, written in one of
// languages, of one of kinds, stopping at two: the resolution pass only tells
// none, one and several apart, and stopping spares it reading the thousands of
// rows a common method name has (`area` in 1,900 classes took 2.8 ms, two rows
// 40 µs). first is the only one when the count is 1.
func (s *Store) CountDefinitions(ctx context.Context, name string, languages []string, kinds []graph.NodeKind) (int, graph.Node, error) {
	args := []any{name}
	var lm, km []string
	for _, l := range languages {
		args, lm = append(args, l), append(lm, "?")
	}
	for _, k := range kinds {
		args, km = append(args, string(k)), append(km, "?")
	}
	rows, err := s.reader().QueryContext(ctx, `SELECT qname, file, kind FROM nodes
		WHERE name = ? AND exported AND language IN (`+strings.Join(lm, ", ")+`) AND kind IN (`+strings.Join(km, ", ")+`)
		LIMIT 2`, args...)
	if err != nil {
		return 0, graph.Node{}, s.wrap("count definitions of "+name, err)
	}
	defer rows.Close()
	n, first := 0, graph.Node{Name: name}
	for rows.Next() {
		n++
		if n > 1 {
			continue
		}
		var kind string
		if err := rows.Scan(&first.QName, &first.File, &kind); err != nil {
			return 0, graph.Node{}, s.wrap("count definitions of "+name, err)
		}
		first.Kind = graph.NodeKind(kind)
	}
	if err := rows.Err(); err != nil {
		return 0, graph.Node{}, s.wrap("count definitions of "+name, err)
	}
	if n != 1 {
		first = graph.Node{}
	}
	return n, first, nil
}

// Definitions lists at most limit exported definitions named name, written in
// one of languages, of one of kinds, ordered by qualified name.
func (s *Store) Definitions(ctx context.Context, name string, languages []string, kinds []graph.NodeKind, limit int) ([]graph.Node, error) {
	args := []any{name}
	var lm, km []string
	for _, l := range languages {
		args, lm = append(args, l), append(lm, "?")
	}
	for _, k := range kinds {
		args, km = append(args, string(k)), append(km, "?")
	}
	return s.nodes(ctx, `SELECT `+nodeColumns+` FROM nodes WHERE name = ? AND exported
		AND language IN (`+strings.Join(lm, ", ")+`) AND kind IN (`+strings.Join(km, ", ")+`)
		ORDER BY qname LIMIT `+strconv.Itoa(limit), args...)
}

// UnresolvedCallsNamed counts the call sites still unresolved whose callee is
// name or ends with `.name` or `::name`: the calls that may reach a definition
// named name without an edge saying so.
//
// A bare name is counted from a table of all such sites by last name, built once
// per generation of the index while the store stays open (Memo): the SQL below
// reads every unresolved site, a third of a callers question on
// golang.org/x/tools.
func (s *Store) UnresolvedCallsNamed(ctx context.Context, name string) (int, error) {
	if !strings.ContainsAny(name, ".:") {
		byName, err := s.Memo(ctx, "unresolved-calls-by-name", func() (any, error) { return s.unresolvedCallsByName(ctx) })
		if err != nil {
			return 0, err
		}
		return byName.(map[string]int)[name], nil
	}
	var n int
	err := s.reader().QueryRowContext(ctx, `SELECT count(*) FROM unresolved WHERE kind = 'calls'
		AND (name = ?1 OR substr(name, -length(?1) - 1) = '.' || ?1 OR substr(name, -length(?1) - 2) = '::' || ?1)`,
		name).Scan(&n)
	if err != nil {
		return 0, s.wrap("count unresolved calls to "+name, err)
	}
	return n, nil
}

// unresolvedCallsByName counts the unresolved call sites under each name a bare
// name query matches: the whole name, and what follows its last "." and its
// last "::" (each site counted once per name).
func (s *Store) unresolvedCallsByName(ctx context.Context) (map[string]int, error) {
	rows, err := s.reader().QueryContext(ctx, `SELECT name FROM unresolved WHERE kind = 'calls'`)
	if err != nil {
		return nil, s.wrap("count unresolved calls", err)
	}
	defer rows.Close()
	counts := map[string]int{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, s.wrap("count unresolved calls", err)
		}
		keys := [3]string{name}
		if i := strings.LastIndex(name, "."); i >= 0 {
			keys[1] = name[i+1:]
		}
		if i := strings.LastIndex(name, "::"); i >= 0 {
			keys[2] = name[i+2:]
		}
		for i, k := range keys {
			if k != "" && (i == 0 || k != keys[0]) && (i != 2 || k != keys[1]) {
				counts[k]++
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("count unresolved calls", err)
	}
	return counts, nil
}

// chunkSize keeps IN lists well under SQLite's 32,766 bound on parameters.
const chunkSize = 500

// inChunks calls fn with successive chunks of values and their "?, ?" marks.
func inChunks(values []string, fn func(chunk []any, marks string) error) error {
	for start := 0; start < len(values); start += chunkSize {
		end := min(start+chunkSize, len(values))
		chunk := make([]any, 0, end-start)
		for _, v := range values[start:end] {
			chunk = append(chunk, v)
		}
		if err := fn(chunk, strings.TrimSuffix(strings.Repeat("?, ", len(chunk)), ", ")); err != nil {
			return err
		}
	}
	return nil
}

// stringsIn runs a one-column query whose %s is an IN list over values, chunked.
func (s *Store) stringsIn(ctx context.Context, op, query string, values []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	err := inChunks(values, func(chunk []any, marks string) error {
		rows, err := s.reader().QueryContext(ctx, fmt.Sprintf(query, marks), chunk...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				return err
			}
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, s.wrap(op, err)
	}
	return out, nil
}
