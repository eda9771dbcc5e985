package store

import (
	"context"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// AllNodes returns every node without its signature and doc, ordered by qualified
// name: the vertices for whole-graph algorithms (communities).
func (s *Store) AllNodes(ctx context.Context) ([]graph.Node, error) {
	rows, err := s.reader().QueryContext(ctx, `SELECT qname, kind, name, file, line, language, exported FROM nodes ORDER BY qname`)
	if err != nil {
		return nil, s.wrap("read all nodes", err)
	}
	defer rows.Close()
	var out []graph.Node
	for rows.Next() {
		var n graph.Node
		var kind string
		if err := rows.Scan(&n.QName, &kind, &n.Name, &n.File, &n.Line, &n.Language, &n.Exported); err != nil {
			return nil, s.wrap("read all nodes", err)
		}
		n.Kind = graph.NodeKind(kind)
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("read all nodes", err)
	}
	return out, nil
}

// AllEdges returns every edge of the given kinds (all kinds when none), src and
// dst and kind only, in no particular order.
func (s *Store) AllEdges(ctx context.Context, kinds ...graph.EdgeKind) ([]graph.Edge, error) {
	query := `SELECT src, dst, kind FROM edges`
	var args []any
	if len(kinds) > 0 {
		query += ` WHERE kind IN (?` + strings.Repeat(", ?", len(kinds)-1) + `)`
		for _, k := range kinds {
			args = append(args, string(k))
		}
	}
	rows, err := s.reader().QueryContext(ctx, query, args...)
	if err != nil {
		return nil, s.wrap("read all edges", err)
	}
	defer rows.Close()
	var out []graph.Edge
	for rows.Next() {
		var e graph.Edge
		var k string
		if err := rows.Scan(&e.From, &e.To, &k); err != nil {
			return nil, s.wrap("read all edges", err)
		}
		e.Kind = graph.EdgeKind(k)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("read all edges", err)
	}
	return out, nil
}
