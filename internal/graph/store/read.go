package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// Direction says which end of an edge a qualified name is.
type Direction int

const (
	// Out: edges whose src is the name (what it calls, contains, implements).
	Out Direction = iota
	// In: edges whose dst is the name (its callers, its container, its implementers).
	In
)

func (d Direction) String() string {
	if d == In {
		return "in"
	}
	return "out"
}

const nodeColumns = `qname, kind, name, file, line, col, end_line, signature, doc, language, exported`

func scanNode(sc interface{ Scan(...any) error }) (graph.Node, error) {
	var n graph.Node
	var kind string
	err := sc.Scan(&n.QName, &kind, &n.Name, &n.File, &n.Line, &n.Col, &n.EndLine, &n.Signature, &n.Doc,
		&n.Language, &n.Exported)
	n.Kind = graph.NodeKind(kind)
	return n, err
}

// Node returns the node with that qualified name, or an error wrapping ErrNotFound.
func (s *Store) Node(ctx context.Context, qname string) (graph.Node, error) {
	stmt, err := s.prepared(ctx, `SELECT `+nodeColumns+` FROM nodes WHERE qname = ?`)
	if err != nil {
		return graph.Node{}, s.wrap("node "+qname, err)
	}
	n, err := scanNode(stmt.QueryRowContext(ctx, qname))
	if errors.Is(err, sql.ErrNoRows) {
		return graph.Node{}, fmt.Errorf("node %s: %w", qname, ErrNotFound)
	}
	if err != nil {
		return graph.Node{}, s.wrap("node "+qname, err)
	}
	return n, nil
}

// NodesByName returns the nodes whose short name is name exactly; when there are
// none, those whose name matches ignoring case. Ordered by qualified name.
func (s *Store) NodesByName(ctx context.Context, name string) ([]graph.Node, error) {
	nodes, err := s.nodes(ctx, `SELECT `+nodeColumns+` FROM nodes WHERE name = ? ORDER BY qname`, name)
	if err != nil || len(nodes) > 0 {
		return nodes, err
	}
	return s.nodes(ctx, `SELECT `+nodeColumns+` FROM nodes WHERE name = ? COLLATE NOCASE ORDER BY qname`, name)
}

// NodesInFile returns the definitions of one file, ordered by line.
func (s *Store) NodesInFile(ctx context.Context, file string) ([]graph.Node, error) {
	return s.nodes(ctx, `SELECT `+nodeColumns+` FROM nodes WHERE file = ? ORDER BY line, qname`, file)
}

func (s *Store) nodes(ctx context.Context, query string, args ...any) ([]graph.Node, error) {
	rows, err := s.reader().QueryContext(ctx, query, args...)
	if err != nil {
		return nil, s.wrap("read nodes", err)
	}
	defer rows.Close()
	var out []graph.Node
	for rows.Next() {
		n, err := scanNode(rows)
		if err != nil {
			return nil, s.wrap("read nodes", err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("read nodes", err)
	}
	return out, nil
}

// Edges returns the edges of kind (every kind when empty) leaving (Out) or
// reaching (In) qname, ordered by file, line and the other end.
func (s *Store) Edges(ctx context.Context, qname string, kind graph.EdgeKind, dir Direction) ([]graph.Edge, error) {
	col := "src"
	if dir == In {
		col = "dst"
	}
	query := `SELECT ` + edgeColumns + ` FROM edges WHERE ` + col + ` = ?`
	args := []any{qname}
	if kind != "" {
		query += ` AND kind = ?`
		args = append(args, string(kind))
	}
	query += ` ORDER BY file, line, src, dst, kind`
	return s.edges(ctx, "edges of "+qname, query, args...)
}

const edgeColumns = `src, dst, kind, confidence, resolution, file, line`

// edges runs a query selecting edgeColumns; op names it in errors.
func (s *Store) edges(ctx context.Context, op, query string, args ...any) ([]graph.Edge, error) {
	stmt, err := s.prepared(ctx, query)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	rows, err := stmt.QueryContext(ctx, args...)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	var out []graph.Edge
	for rows.Next() {
		var e graph.Edge
		var k, res string
		if err := rows.Scan(&e.From, &e.To, &k, &e.Confidence, &res, &e.File, &e.Line); err != nil {
			return nil, s.wrap(op, err)
		}
		e.Kind, e.Resolution = graph.EdgeKind(k), graph.Resolution(res)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	return out, nil
}

// Unresolved returns the call and reference sites inside qname whose target no
// strategy could name, ordered by position.
func (s *Store) Unresolved(ctx context.Context, qname string) ([]graph.Unresolved, error) {
	return s.siteRows(ctx, "unresolved of "+qname,
		`SELECT src, name, kind, file, line, col, reason FROM unresolved WHERE src = ? ORDER BY file, line, col, name`, qname)
}

// siteRows reads call and reference sites (the unresolved and sites tables share
// their columns) selected by query.
func (s *Store) siteRows(ctx context.Context, op, query string, args ...any) ([]graph.Unresolved, error) {
	rows, err := s.reader().QueryContext(ctx, query, args...)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	var out []graph.Unresolved
	for rows.Next() {
		var u graph.Unresolved
		var k string
		if err := rows.Scan(&u.From, &u.Name, &k, &u.File, &u.Line, &u.Col, &u.Reason); err != nil {
			return nil, s.wrap(op, err)
		}
		u.Kind = graph.EdgeKind(k)
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	return out, nil
}

// Manifest returns the content hash of every indexed file, by path: what the
// indexer diffs a fresh scan against.
func (s *Store) Manifest(ctx context.Context) (map[string]string, error) {
	rows, err := s.reader().QueryContext(ctx, `SELECT path, hash FROM files`)
	if err != nil {
		return nil, s.wrap("read manifest", err)
	}
	defer rows.Close()
	m := make(map[string]string)
	for rows.Next() {
		var p, h string
		if err := rows.Scan(&p, &h); err != nil {
			return nil, s.wrap("read manifest", err)
		}
		m[p] = h
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("read manifest", err)
	}
	return m, nil
}

// Meta returns a key of the meta table; ok is false when it was never set.
func (s *Store) Meta(ctx context.Context, key string) (value string, ok bool, err error) {
	err = s.reader().QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, s.wrap("read meta "+key, err)
	}
	return value, true, nil
}

// Stats counts what the store holds.
type Stats struct {
	Files       int `json:"files"`
	ParseErrors int `json:"parse_errors"` // files whose facts are partial
	Quarantined int `json:"quarantined"`  // files whose facts are absent
	NodeCount   int `json:"node_count"`
	EdgeCount   int `json:"edge_count"`
	Unresolved  int `json:"unresolved"`

	Nodes       map[graph.NodeKind]int   `json:"nodes"`
	Edges       map[graph.EdgeKind]int   `json:"edges"`
	Resolutions map[graph.Resolution]int `json:"resolutions"` // edges by how their target was found
}

// Stats counts files, nodes and edges by kind, and unresolved sites.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	st := Stats{
		Nodes:       map[graph.NodeKind]int{},
		Edges:       map[graph.EdgeKind]int{},
		Resolutions: map[graph.Resolution]int{},
	}
	db := s.reader()
	err := db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(parse_error <> '' AND NOT quarantined), 0),
		coalesce(sum(quarantined), 0) FROM files`).Scan(&st.Files, &st.ParseErrors, &st.Quarantined)
	if err != nil {
		return Stats{}, s.wrap("stats", err)
	}
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM unresolved_rows`).Scan(&st.Unresolved); err != nil {
		return Stats{}, s.wrap("stats", err)
	}
	// Counted on the id-coded rows, then named: the views would look up every
	// row's strings.
	for _, g := range []struct {
		query string
		add   func(k string, n int)
	}{
		{`SELECT s.text, c.n FROM (SELECT kind, count(*) AS n FROM node_rows GROUP BY kind) c JOIN strings s ON s.id = c.kind`, func(k string, n int) {
			st.Nodes[graph.NodeKind(k)] = n
			st.NodeCount += n
		}},
		{`SELECT s.text, c.n FROM (SELECT kind, count(*) AS n FROM edge_rows GROUP BY kind) c JOIN strings s ON s.id = c.kind`, func(k string, n int) {
			st.Edges[graph.EdgeKind(k)] = n
			st.EdgeCount += n
		}},
		{`SELECT s.text, c.n FROM (SELECT resolution, count(*) AS n FROM edge_rows GROUP BY resolution) c JOIN strings s ON s.id = c.resolution`, func(k string, n int) {
			st.Resolutions[graph.Resolution(k)] = n
		}},
	} {
		if err := groupCounts(ctx, db, g.query, g.add); err != nil {
			return Stats{}, s.wrap("stats", err)
		}
	}
	return st, nil
}

func groupCounts(ctx context.Context, db *sql.DB, query string, add func(string, int)) error {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return err
		}
		add(k, n)
	}
	return rows.Err()
}
