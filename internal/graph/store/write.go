package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// ReplaceFiles brings the store in line with a set of re-parsed files, in one
// transaction: for each file in facts, and each path in removed, the nodes defined
// in it and the edges and unresolved sites located in it are deleted, with their
// full-text rows; then each file's new facts are inserted. Other files' rows are left
// alone, so an edge from an untouched file to a replaced node survives (edges are
// keyed by qualified names, which do not change on re-parse).
//
// Each file's unresolved sites are written twice: to sites, as the extractor left
// them, and to unresolved, until the cross-file pass (internal/graph/resolve)
// resolves what it can; every replaced or removed path is marked pending for it.
// The pass's own tables are not touched here.
//
// A node whose stored row the file's facts repeat exactly keeps it and its
// full-text row (keep.go); the answers are those of a delete and re-insert.
//
// Nodes are upserted by qualified name: a definition that moved to another file
// belongs to the file written last. Every node, edge and unresolved site must lie in
// the file of the FileFacts that carries it (an empty File means that file);
// anything else is refused before the transaction starts, since it could never be
// replaced.
func (s *Store) ReplaceFiles(ctx context.Context, facts []graph.FileFacts, removed []string) error {
	db, err := s.writer("replace files")
	if err != nil {
		return err
	}
	for i := range facts {
		if err := validateFacts(&facts[i]); err != nil {
			return fmt.Errorf("replace files: %w", err)
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("replace files", err)
	}
	defer tx.Rollback()
	w, err := prepareWriter(ctx, tx, &s.names)
	if err != nil {
		return s.wrap("replace files", err)
	}
	defer w.close()

	// The rows' statements run without ctx's cancellation: the driver starts a
	// goroutine per statement to watch a cancellable context, 13% of a first
	// pass's write time (graphbench tsindex profile). ctx is checked per file.
	rows := context.WithoutCancel(ctx)
	now := time.Now().UTC().Format(time.RFC3339)
	for _, p := range removed {
		if err := w.purge(rows, p); err != nil {
			return s.wrap("remove file "+p, err)
		}
		if _, err := w.delFile.ExecContext(rows, p); err != nil {
			return s.wrap("remove file "+p, err)
		}
	}
	if err := w.flushRows(rows); err != nil { // the removed paths' pending marks
		return s.wrap("replace files", err)
	}
	// Files are purged before their rows are written, a run of distinct paths at
	// a time (the rows wait in multi-row INSERTs): a path given twice is purged
	// again after its first facts are written, as one file after the other.
	for first := 0; first < len(facts); {
		end := distinctRun(facts, first)
		for i := first; i < end; i++ {
			if err := ctx.Err(); err != nil {
				return s.wrap("replace files", err)
			}
			if err := w.purgeSites(rows, facts[i].Path); err != nil {
				return s.wrap("replace file "+facts[i].Path, err)
			}
		}
		for i := first; i < end; i++ {
			if err := w.insert(rows, &facts[i], now); err != nil {
				return s.wrap("replace file "+facts[i].Path, err)
			}
		}
		if err := w.flushRows(rows); err != nil {
			return s.wrap("replace files", err)
		}
		first = end
	}
	if err := w.flush(ctx, tx); err != nil {
		return s.wrap("replace files", err)
	}
	if len(facts)+len(removed) > 0 {
		if err := bumpGeneration(ctx, tx); err != nil {
			return s.wrap("replace files", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return s.wrap("replace files", err)
	}
	w.strings.committed()
	return nil
}

// distinctRun returns the end of the longest run of facts from first on whose
// paths are distinct.
func distinctRun(facts []graph.FileFacts, first int) int {
	seen := make(map[string]bool, len(facts)-first)
	for i := first; i < len(facts); i++ {
		if seen[facts[i].Path] {
			return i
		}
		seen[facts[i].Path] = true
	}
	return len(facts)
}

func validateFacts(f *graph.FileFacts) error {
	if f.Path == "" {
		return errors.New("file facts without a path")
	}
	for _, n := range f.Nodes {
		if n.QName == "" || n.Kind == "" {
			return fmt.Errorf("%s: node %q without a qualified name or kind", f.Path, n.Name)
		}
		if n.File != "" && n.File != f.Path {
			return fmt.Errorf("%s: node %s is located in another file (%s)", f.Path, n.QName, n.File)
		}
	}
	for _, e := range f.Edges {
		if e.From == "" || e.To == "" || e.Kind == "" {
			return fmt.Errorf("%s: edge %q -> %q without both ends and a kind", f.Path, e.From, e.To)
		}
		if e.File != "" && e.File != f.Path {
			return fmt.Errorf("%s: edge %s -> %s is located in another file (%s)", f.Path, e.From, e.To, e.File)
		}
	}
	for _, u := range f.Unresolved {
		if u.File != "" && u.File != f.Path {
			return fmt.Errorf("%s: unresolved %s in %s is located in another file (%s)", f.Path, u.Name, u.From, u.File)
		}
	}
	return nil
}

// writer holds the statements of one ReplaceFiles transaction, prepared once,
// the rows waiting in multi-row INSERTs, and the transaction's interner.
// Single-row INSERTs spent most of a first pass's write time in the driver's
// per-statement work (graphbench tsindex profile).
//
// The full-text index is written last, in two statements over staged rows: FTS5
// flushes its pending rows to disk at every statement that opens a savepoint (the
// node upsert does), so interleaving its writes with the others made one tiny
// segment per node, and ReplaceFiles four times slower (measured with
// BenchmarkReplaceFiles).
type writer struct {
	delNodes, delEdges, delUnresolved, delSites, delFile, dropSearch *sql.Stmt
	fileNodes, delNodeID, dropSearchID                               *sql.Stmt
	all                                                              []*sql.Stmt

	pend, files, nodes, stage, edges, unresolved, sites *batchInsert
	batches                                             []*batchInsert
	strings                                             *interner
	wrote                                               map[int64]int64 // node id -> the path id whose facts wrote it
}

// stagingSQL creates the per-connection tables the full-text rows wait in. They are
// emptied at the start of each batch: a failed batch rolls them back anyway.
const stagingSQL = `CREATE TEMP TABLE IF NOT EXISTS search_drop(id INTEGER PRIMARY KEY);
CREATE TEMP TABLE IF NOT EXISTS search_stage(id INTEGER PRIMARY KEY, name, qname, signature, doc, path);
DELETE FROM temp.search_drop;
DELETE FROM temp.search_stage;`

func prepareWriter(ctx context.Context, tx *sql.Tx, names *nameCache) (*writer, error) {
	if _, err := tx.ExecContext(ctx, stagingSQL); err != nil {
		return nil, err
	}
	in, err := newInterner(ctx, tx, names)
	if err != nil {
		return nil, err
	}
	w := &writer{strings: in, wrote: map[int64]int64{}}
	// The purge statements take the path's id: a path never stored has no rows.
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&w.dropSearch, `INSERT OR IGNORE INTO temp.search_drop(id) SELECT id FROM node_rows WHERE file = ?`},
		{&w.delNodes, `DELETE FROM node_rows WHERE file = ?`},
		{&w.delEdges, `DELETE FROM edge_rows WHERE file = ?`},
		{&w.delUnresolved, `DELETE FROM unresolved_rows WHERE file = ?`},
		{&w.delSites, `DELETE FROM site_rows WHERE file = ?`},
		{&w.delFile, `DELETE FROM file_rows WHERE id = ` + idOf},
		{&w.delNodeID, `DELETE FROM node_rows WHERE id = ?`},
		{&w.dropSearchID, `INSERT OR IGNORE INTO temp.search_drop(id) VALUES(?)`},
		{&w.fileNodes, `SELECT id, kind, name, line, col, end_line, signature, doc, language, exported FROM node_rows WHERE file = ?`},
	} {
		st, err := tx.PrepareContext(ctx, p.sql)
		if err != nil {
			w.close()
			return nil, err
		}
		*p.dst = st
		w.all = append(w.all, st)
	}
	for _, b := range []struct {
		dst  **batchInsert
		head string
		cols int
	}{
		// REPLACE gives the row a new rowid: the pass clears only the rowids it read.
		{&w.pend, `INSERT OR REPLACE INTO resolve_pending(path)`, 1},
		{&w.files, `INSERT OR REPLACE INTO file_rows(id, language, hash, size, indexed_at, parse_error, quarantined, typed)`, 8},
		// A node's id is its qualified name's: a node that moved in from a file not
		// in this batch keeps it, and flush replaces its search row by that id.
		{&w.nodes, `INSERT OR REPLACE INTO node_rows(id, kind, name, file, line, col, end_line, signature, doc, language, exported)`, 11},
		{&w.stage, `INSERT OR REPLACE INTO temp.search_stage(id, name, qname, signature, doc, path)`, 6},
		{&w.edges, `INSERT INTO edge_rows(src, dst, kind, confidence, resolution, file, line)`, 7},
		{&w.unresolved, `INSERT INTO unresolved_rows(src, name, kind, file, line, col, reason)`, 7},
		{&w.sites, `INSERT INTO site_rows(src, name, kind, file, line, col, reason)`, 7},
	} {
		*b.dst = &batchInsert{tx: tx, head: b.head, cols: b.cols}
		w.batches = append(w.batches, *b.dst)
	}
	w.batches = append(w.batches, in.added)
	return w, nil
}

func (w *writer) close() {
	for _, st := range w.all {
		st.Close()
	}
	for _, b := range w.batches {
		b.close()
	}
	w.strings.close()
}

// purge deletes what the file at path contributed, noting its nodes' search rows
// for flush, and marks the path pending for the cross-file pass.
func (w *writer) purge(ctx context.Context, path string) error {
	if err := w.purgeSites(ctx, path); err != nil {
		return err
	}
	id, ok, err := w.strings.lookup(ctx, path)
	if err != nil || !ok {
		return err
	}
	return w.dropNodes(ctx, id)
}

// purgeSites deletes the edges and sites the file at path contributed and marks
// the path pending for the cross-file pass; its nodes are insert's to replace or keep.
func (w *writer) purgeSites(ctx context.Context, path string) error {
	if err := w.pend.add(ctx, path); err != nil {
		return err
	}
	id, ok, err := w.strings.lookup(ctx, path)
	if err != nil || !ok {
		return err
	}
	for _, st := range []*sql.Stmt{w.delEdges, w.delUnresolved, w.delSites} {
		if _, err := st.ExecContext(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// flushRows writes the rows still waiting.
func (w *writer) flushRows(ctx context.Context) error {
	for _, b := range w.batches {
		if err := b.flush(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) insert(ctx context.Context, f *graph.FileFacts, now string) error {
	// A path the strings table does not hold has no rows to keep or drop: the
	// first pass into an empty store reads nothing back.
	_, stored, err := w.strings.lookup(ctx, f.Path)
	if err != nil {
		return err
	}
	ids, err := w.strings.all(ctx, f.Path, f.Language)
	if err != nil {
		return err
	}
	path, fileLang := ids[0], ids[1]
	if err := w.files.add(ctx, path, fileLang, f.Hash, f.Size, now, f.ParseError, f.Quarantined, typed(f)); err != nil {
		return err
	}
	if err := w.insertNodes(ctx, f, path, stored); err != nil {
		return err
	}
	for _, e := range f.Edges {
		ids, err := w.strings.all(ctx, e.From, e.To, string(e.Kind), string(e.Resolution))
		if err != nil {
			return fmt.Errorf("edge %s -> %s: %w", e.From, e.To, err)
		}
		if err := w.edges.add(ctx, ids[0], ids[1], ids[2], e.Confidence, ids[3], path, e.Line); err != nil {
			return fmt.Errorf("edge %s -> %s: %w", e.From, e.To, err)
		}
	}
	for _, u := range f.Unresolved {
		ids, err := w.strings.all(ctx, u.From, u.Name, string(u.Kind), u.Reason)
		if err != nil {
			return fmt.Errorf("unresolved %s: %w", u.Name, err)
		}
		for _, b := range []*batchInsert{w.unresolved, w.sites} {
			if err := b.add(ctx, ids[0], ids[1], ids[2], path, u.Line, u.Col, ids[3]); err != nil {
				return fmt.Errorf("unresolved %s: %w", u.Name, err)
			}
		}
	}
	return nil
}

// insertNodes writes the file's nodes and stages their search rows, but for
// the rows the file already holds exactly as they would be written (see
// keep.go); stored nodes the facts no longer define are deleted.
func (w *writer) insertNodes(ctx context.Context, f *graph.FileFacts, path int64, stored bool) error {
	var old map[int64]nodeRow
	if stored {
		var err error
		if old, err = w.storedNodes(ctx, path); err != nil {
			return err
		}
	}
	next := make(map[int64]nodeRow, len(f.Nodes))
	order := make([]int64, 0, len(f.Nodes)) // each id once, where it first appears
	last := make(map[int64]int, len(f.Nodes))
	for i, n := range f.Nodes {
		lang := n.Language
		if lang == "" {
			lang = f.Language
		}
		ids, err := w.strings.all(ctx, n.QName, string(n.Kind), lang)
		if err != nil {
			return fmt.Errorf("node %s: %w", n.QName, err)
		}
		if _, ok := next[ids[0]]; !ok {
			order = append(order, ids[0])
		}
		// A qualified name given twice: the last one is written, as an upsert would.
		next[ids[0]] = nodeRow{kind: ids[1], language: ids[2], name: n.Name, signature: n.Signature,
			doc: n.Doc, line: n.Line, col: n.Col, endLine: n.EndLine, exported: n.Exported}
		last[ids[0]] = i
	}
	for id := range old {
		if _, ok := next[id]; !ok {
			if err := w.dropNode(ctx, id); err != nil {
				return fmt.Errorf("node %d: %w", id, err)
			}
		}
	}
	searchPath := expandIdentifiers(f.Path) // every node's search row repeats it
	for _, id := range order {
		r := next[id]
		if w.keeps(path, id, old, r) {
			continue
		}
		w.wrote[id] = path
		n := &f.Nodes[last[id]]
		if err := w.nodes.add(ctx, id, r.kind, n.Name, path, n.Line, n.Col, n.EndLine,
			n.Signature, n.Doc, r.language, n.Exported); err != nil {
			return fmt.Errorf("node %s: %w", n.QName, err)
		}
		if err := w.stage.add(ctx, id, expandIdentifiers(n.Name), expandIdentifiers(n.QName),
			expandIdentifiers(n.Signature), expandIdentifiers(n.Doc), searchPath); err != nil {
			return fmt.Errorf("search row of %s: %w", n.QName, err)
		}
	}
	return nil
}

// flush brings the full-text index in line: the rows of purged nodes and of
// re-inserted ones go (a rowid may have been reused, or kept by an upsert), the
// staged rows come in.
func (w *writer) flush(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM search WHERE rowid IN
		(SELECT id FROM temp.search_drop UNION SELECT id FROM temp.search_stage)`); err != nil {
		return fmt.Errorf("full-text index: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO search(rowid, name, qname, signature, doc, path)
		SELECT id, name, qname, signature, doc, path FROM temp.search_stage`); err != nil {
		return fmt.Errorf("full-text index: %w", err)
	}
	return nil
}

// SetMeta stores a key of the meta table (see the Meta* keys).
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	db, err := s.writer("set meta " + key)
	if err != nil {
		return err
	}
	if key == MetaSchemaVersion {
		return fmt.Errorf("set meta %s: the schema version is the store's own", key)
	}
	if _, err := db.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)`, key, value); err != nil {
		return s.wrap("set meta "+key, err)
	}
	return nil
}

// typed reports whether a type checker drew the file's edges.
func typed(f *graph.FileFacts) bool {
	for _, e := range f.Edges {
		if e.Resolution == graph.ResolvedTypes {
			return true
		}
	}
	return false
}
