package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// How the cross-file resolution pass writes its results: one transaction per
// pass, each resolved file's derived rows replaced as a unit.

// FileResolution is the pass's result for one file: it replaces the file's
// derived edges, unresolved sites and dependency records.
type FileResolution struct {
	Path       string
	Edges      []graph.Edge
	Unresolved []graph.Unresolved
	Deps       []Dep
}

// ApplyResolution writes a pass's results in one transaction: each file's derived
// edges (edge_rows.derived = 1), its still unresolved sites and its dependency
// records replace the old ones; the pending paths done are cleared (a path
// replaced again since it was read stays pending), with the names each defines
// now and its Shape recorded (or forgotten, for a removed file); config is stored
// as MetaResolveConfig.
func (s *Store) ApplyResolution(ctx context.Context, files []FileResolution, done []Pending, config string) error {
	db, err := s.writer("apply resolution")
	if err != nil {
		return err
	}
	for i := range files {
		if err := validateResolution(&files[i]); err != nil {
			return fmt.Errorf("apply resolution: %w", err)
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("apply resolution", err)
	}
	defer tx.Rollback()
	stmts, err := prepareAll(ctx, tx, []string{
		`DELETE FROM edge_rows WHERE file = ` + idOf + ` AND derived`,
		`DELETE FROM unresolved_rows WHERE file = ` + idOf,
		`DELETE FROM resolve_deps WHERE file = ?`,
		`DELETE FROM resolve_names WHERE file = ` + idOf,
		// The file's own node is recorded too: a file without definitions is still
		// known to have existed (SeenBefore).
		`INSERT INTO resolve_names(file, name) SELECT DISTINCT file, name FROM node_rows WHERE file = ` + idOf,
		`DELETE FROM resolve_deps WHERE file = ?1 AND NOT EXISTS (SELECT 1 FROM files WHERE path = ?1)`,
		`DELETE FROM resolve_pending WHERE rowid = ? AND path = ?`,
		`DELETE FROM resolve_shapes WHERE file = ?`,
		`INSERT INTO resolve_shapes(file, shape) SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM files WHERE path = ?1)`,
	})
	if err != nil {
		return s.wrap("apply resolution", err)
	}
	defer func() {
		for _, st := range stmts {
			st.Close()
		}
	}()
	delEdges, delUnr, delDeps, delNames, insNames, forget, delPending := stmts[0], stmts[1], stmts[2], stmts[3], stmts[4], stmts[5], stmts[6]
	delShape, insShape := stmts[7], stmts[8]
	in, err := newInterner(ctx, tx, &s.names)
	if err != nil {
		return s.wrap("apply resolution", err)
	}
	defer in.close()
	edges := &batchInsert{tx: tx, head: `INSERT INTO edge_rows(src, dst, kind, confidence, resolution, file, line, derived)`, cols: 8}
	unr := &batchInsert{tx: tx, head: `INSERT INTO unresolved_rows(src, name, kind, file, line, col, reason)`, cols: 7}
	deps := &batchInsert{tx: tx, head: `INSERT INTO resolve_deps(file, kind, key, filter, seen)`, cols: 5}
	defer edges.close()
	defer unr.close()
	defer deps.close()
	for _, f := range files {
		for _, st := range []*sql.Stmt{delEdges, delUnr, delDeps} {
			if _, err := st.ExecContext(ctx, f.Path); err != nil {
				return s.wrap("apply resolution of "+f.Path, err)
			}
		}
		path, err := in.id(ctx, f.Path)
		if err != nil {
			return s.wrap("apply resolution of "+f.Path, err)
		}
		for _, e := range f.Edges {
			ids, err := in.all(ctx, e.From, e.To, string(e.Kind), string(e.Resolution))
			if err == nil {
				err = edges.add(ctx, ids[0], ids[1], ids[2], e.Confidence, ids[3], path, e.Line, 1)
			}
			if err != nil {
				return s.wrap("apply resolution of "+f.Path, err)
			}
		}
		for _, u := range f.Unresolved {
			ids, err := in.all(ctx, u.From, u.Name, string(u.Kind), u.Reason)
			if err == nil {
				err = unr.add(ctx, ids[0], ids[1], ids[2], path, u.Line, u.Col, ids[3])
			}
			if err != nil {
				return s.wrap("apply resolution of "+f.Path, err)
			}
		}
		for _, d := range f.Deps {
			if err := deps.add(ctx, f.Path, string(d.Kind), d.Key, d.Filter, d.Seen); err != nil {
				return s.wrap("apply resolution of "+f.Path, err)
			}
		}
	}
	for _, b := range []*batchInsert{edges, unr, deps, in.added} {
		if err := b.flush(ctx); err != nil {
			return s.wrap("apply resolution", err)
		}
	}
	for _, p := range done {
		// A removed file has no nodes left: its names are forgotten, and so are its
		// dependency records (its edges went with ReplaceFiles).
		for _, st := range []*sql.Stmt{delNames, insNames, forget} {
			if _, err := st.ExecContext(ctx, p.Path); err != nil {
				return s.wrap("record names of "+p.Path, err)
			}
		}
		if _, err := delShape.ExecContext(ctx, p.Path); err != nil {
			return s.wrap("record shape of "+p.Path, err)
		}
		if _, err := insShape.ExecContext(ctx, p.Path, p.Shape); err != nil {
			return s.wrap("record shape of "+p.Path, err)
		}
		if _, err := delPending.ExecContext(ctx, p.ticket, p.Path); err != nil {
			return s.wrap("clear pending "+p.Path, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)`, MetaResolveConfig, config); err != nil {
		return s.wrap("apply resolution", err)
	}
	if len(files) > 0 {
		if err := bumpGeneration(ctx, tx); err != nil {
			return s.wrap("apply resolution", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return s.wrap("apply resolution", err)
	}
	in.committed()
	return nil
}

// batchRows is how many rows one INSERT of a batchInsert carries: single-row
// inserts spent most of a full pass in statement overhead (BenchmarkResolveFull
// profile); 64 rows of 8 columns stay far below SQLite's parameter bound.
const batchRows = 64

// batchInsert writes rows into one table in multi-row INSERT statements.
type batchInsert struct {
	tx   *sql.Tx
	head string // INSERT INTO table(columns)
	cols int
	vals []any
	full *sql.Stmt // the statement for batchRows rows, prepared once
}

func (b *batchInsert) add(ctx context.Context, vals ...any) error {
	b.vals = append(b.vals, vals...)
	if len(b.vals) < batchRows*b.cols {
		return nil
	}
	if b.full == nil {
		st, err := b.tx.PrepareContext(ctx, b.statement(batchRows))
		if err != nil {
			return err
		}
		b.full = st
	}
	_, err := b.full.ExecContext(ctx, b.vals...)
	b.vals = b.vals[:0]
	return err
}

// flush writes the rows left.
func (b *batchInsert) flush(ctx context.Context) error {
	if len(b.vals) == 0 {
		return nil
	}
	_, err := b.tx.ExecContext(ctx, b.statement(len(b.vals)/b.cols), b.vals...)
	b.vals = b.vals[:0]
	return err
}

func (b *batchInsert) statement(rows int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", b.cols), ", ") + ")"
	return b.head + " VALUES " + strings.TrimSuffix(strings.Repeat(row+", ", rows), ", ")
}

func (b *batchInsert) close() {
	if b.full != nil {
		b.full.Close()
	}
}

func validateResolution(f *FileResolution) error {
	if f.Path == "" {
		return fmt.Errorf("resolution without a path")
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
			return fmt.Errorf("%s: unresolved %s is located in another file (%s)", f.Path, u.Name, u.File)
		}
	}
	return nil
}

func prepareAll(ctx context.Context, tx *sql.Tx, queries []string) ([]*sql.Stmt, error) {
	out := make([]*sql.Stmt, 0, len(queries))
	for _, q := range queries {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			for _, p := range out {
				p.Close()
			}
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}
