package store

import (
	"context"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// AllNodes returns every node, signature and doc included, ordered by qualified
// name (the embeddings leg reads them all). PassNodes is the lighter list.
func (s *Store) AllNodes(ctx context.Context) ([]graph.Node, error) {
	return s.nodes(ctx, `SELECT `+nodeColumns+` FROM nodes ORDER BY qname`)
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
