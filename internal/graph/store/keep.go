package store

import (
	"context"
	"database/sql"
)

// A node a re-written file defines exactly as its stored row keeps that row and
// its full-text row: graph index's typed pass re-writes every Go file the first
// pass wrote, and most definitions come out the same from go/types as from
// go/parser (the signatures of some differ); deleting and re-inserting their
// FTS5 rows was a large part of the typed pass's write
// (docs/benchmarks/graph-scale.md).

// nodeRow is a node_rows row as stored, every column but id and file.
type nodeRow struct {
	kind, language       int64
	name, signature, doc string
	line, col, endLine   int
	exported             bool
}

// storedNodes returns the node rows of the file with id path, by node id.
func (w *writer) storedNodes(ctx context.Context, path int64) (map[int64]nodeRow, error) {
	rows, err := w.fileNodes.QueryContext(ctx, path)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]nodeRow{}
	for rows.Next() {
		var id int64
		var r nodeRow
		if err := rows.Scan(&id, &r.kind, &r.name, &r.line, &r.col, &r.endLine,
			&r.signature, &r.doc, &r.language, &r.exported); err != nil {
			return nil, err
		}
		out[id] = r
	}
	return out, rows.Err()
}

// keeps reports whether the node id the file with id path defines as r is
// stored so already. A node another file of this transaction wrote is written
// again: its stored row may be about to be replaced by that file's, still
// waiting in the batch, and the file written last owns the node.
func (w *writer) keeps(path, id int64, old map[int64]nodeRow, r nodeRow) bool {
	if by, ok := w.wrote[id]; ok && by != path {
		return false
	}
	s, ok := old[id]
	return ok && s == r
}

// dropNode deletes a node row, noting its search row for flush.
func (w *writer) dropNode(ctx context.Context, id int64) error {
	for _, st := range []*sql.Stmt{w.dropSearchID, w.delNodeID} {
		if _, err := st.ExecContext(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// dropNodes deletes the file's node rows, noting their search rows for flush.
func (w *writer) dropNodes(ctx context.Context, path int64) error {
	for _, st := range []*sql.Stmt{w.dropSearch, w.delNodes} {
		if _, err := st.ExecContext(ctx, path); err != nil {
			return err
		}
	}
	return nil
}
