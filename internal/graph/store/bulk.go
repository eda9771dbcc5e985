package store

import (
	"context"
	"strings"
)

// bulkTables are the graph tables whose secondary indexes a first index builds
// after its rows: on x/tools, keeping ten indexes up to date row by row took
// about a fifth of the first pass's writes (graphbench tsindex, the same pass
// with and without them), and SQLite builds an index over rows already there
// by one sort.
var bulkTables = []string{"node_rows", "edge_rows", "unresolved_rows", "site_rows"}

// bulkIndexes returns the schema's CREATE INDEX statements of bulkTables and
// their names, from schemaSQL itself so that the two cannot drift apart.
func bulkIndexes() (creates, names []string) {
	for _, line := range strings.Split(schemaSQL, "\n") {
		rest, ok := strings.CutPrefix(line, "CREATE INDEX IF NOT EXISTS ")
		if !ok {
			continue
		}
		name, on, _ := strings.Cut(rest, " ON ")
		table, _, _ := strings.Cut(on, "(")
		for _, t := range bulkTables {
			if table == t {
				creates = append(creates, line)
				names = append(names, name)
			}
		}
	}
	return creates, names
}

// DeferIndexes readies an empty graph for a first index written in several
// transactions: the secondary indexes of the graph tables are dropped, and
// build, which the caller runs once the rows are in, creates them again.
// Answers are the same without them, only slower: a reader that comes while
// they are missing scans. A graph that has rows keeps its indexes (build does
// nothing then). A write stopped before build leaves them missing until the
// next Open, which creates them.
func (s *Store) DeferIndexes(ctx context.Context) (build func(context.Context) error, err error) {
	none := func(context.Context) error { return nil }
	db, err := s.writer("defer indexes")
	if err != nil {
		return none, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return none, s.wrap("defer indexes", err)
	}
	defer tx.Rollback()
	for _, t := range bulkTables {
		var rows bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM `+t+`)`).Scan(&rows); err != nil {
			return none, s.wrap("defer indexes", err)
		}
		if rows {
			return none, nil
		}
	}
	_, names := bulkIndexes()
	for _, n := range names {
		if _, err := tx.ExecContext(ctx, `DROP INDEX IF EXISTS `+n); err != nil {
			return none, s.wrap("defer indexes", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return none, s.wrap("defer indexes", err)
	}
	return s.buildIndexes, nil
}

// buildIndexes creates the graph tables' secondary indexes that are missing.
func (s *Store) buildIndexes(ctx context.Context) error {
	creates, names := bulkIndexes()
	var have int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN (?`+
		strings.Repeat(", ?", len(names)-1)+`)`, anySlice(names)...).Scan(&have); err != nil {
		return s.wrap("build indexes", err)
	}
	if have == len(names) {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("build indexes", err)
	}
	defer tx.Rollback()
	for _, c := range creates {
		if _, err := tx.ExecContext(ctx, c); err != nil {
			return s.wrap("build indexes", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return s.wrap("build indexes", err)
	}
	return nil
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
