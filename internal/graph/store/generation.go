package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
)

// bumpGeneration counts one more change to the graph, inside the transaction that
// makes it, so that every process sharing the file sees the change counted once
// it sees the change.
func bumpGeneration(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, '1')
  ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`, MetaGeneration)
	return err
}

// Generation is a number that changes whenever the graph does (files replaced or
// removed, resolution applied), by this process or another: what a cache of
// answers computed from the whole graph (communities) is keyed by. An index that
// was never written is generation 0.
func (s *Store) Generation(ctx context.Context) (int64, error) {
	st, err := s.prepared(ctx, `SELECT value FROM meta WHERE key = '`+MetaGeneration+`'`)
	if err != nil {
		return 0, s.wrap("read the index generation", err)
	}
	var v string
	err = st.QueryRowContext(ctx).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, s.wrap("read the index generation", err)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, s.wrap("read the index generation", err)
	}
	return n, nil
}
