package store

import (
	"context"
	"database/sql"
	"errors"
)

// interner turns strings into ids of the strings table inside one write
// transaction, adding the strings it has not seen. Its cache lives as long as
// the transaction: an id learnt in a transaction that rolls back may not exist.
type interner struct {
	get, put *sql.Stmt
	ids      map[string]int64
}

func newInterner(ctx context.Context, tx *sql.Tx) (*interner, error) {
	get, err := tx.PrepareContext(ctx, `SELECT id FROM strings WHERE text = ?`)
	if err != nil {
		return nil, err
	}
	put, err := tx.PrepareContext(ctx, `INSERT INTO strings(text) VALUES(?)`)
	if err != nil {
		get.Close()
		return nil, err
	}
	return &interner{get: get, put: put, ids: map[string]int64{}}, nil
}

// id returns text's id, adding text to the table when it is not there.
func (in *interner) id(ctx context.Context, text string) (int64, error) {
	if id, ok := in.ids[text]; ok {
		return id, nil
	}
	var id int64
	err := in.get.QueryRowContext(ctx, text).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		res, ierr := in.put.ExecContext(ctx, text)
		if ierr != nil {
			return 0, ierr
		}
		id, err = res.LastInsertId()
	}
	if err != nil {
		return 0, err
	}
	in.ids[text] = id
	return id, nil
}

// all interns each of texts in turn; the first error stops it.
func (in *interner) all(ctx context.Context, texts ...string) ([]int64, error) {
	out := make([]int64, len(texts))
	for i, t := range texts {
		id, err := in.id(ctx, t)
		if err != nil {
			return nil, err
		}
		out[i] = id
	}
	return out, nil
}

func (in *interner) close() {
	in.get.Close()
	in.put.Close()
}

// idOf is the SQL of a path's or a name's id, NULL when the string was never
// stored: `DELETE ... WHERE file = ` + idOf deletes nothing then.
const idOf = `(SELECT id FROM strings WHERE text = ?)`
