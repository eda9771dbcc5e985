package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// interner turns strings into ids of the strings table inside one write
// transaction, adding the strings it has not seen. Its own map lives as long as
// the transaction: an id learnt in a transaction that rolls back may not exist.
//
// When the store's nameCache holds the whole strings table (see sync), a string
// it lacks is known to be new: the interner numbers it itself and writes the new
// strings in multi-row INSERTs, with no SELECT per string. The strings table
// of x/tools' first pass took 24% of the write time in SELECTs and single
// INSERTs that way (graphbench tsindex profile).
type interner struct {
	get, put *sql.Stmt
	ids      map[string]int64

	cache    *nameCache // locked from newInterner to close
	complete bool       // cache and ids hold every string of the table
	next     int64      // complete: the id the next new string takes
	added    *batchInsert
	done     bool // commit ran: the new strings are the cache's
}

// nameCache is a store's memory of the strings table across write
// transactions. It is used only while it is known to hold the whole table:
// from a write into an empty table on, caught up at each transaction with the
// rows other connections added (ids only grow: strings are never deleted).
type nameCache struct {
	mu    sync.Mutex
	whole bool             // ids is the whole table up to top
	ids   map[string]int64 // text -> id
	top   int64            // the highest id in ids
}

// maxCachedNames bounds the cache: past it, writes go back to a SELECT per
// string. Judgement: x/tools' index holds about 16,000 strings; two million
// cost about 200 MB of memory.
const maxCachedNames = 2_000_000

func newInterner(ctx context.Context, tx *sql.Tx, cache *nameCache) (*interner, error) {
	get, err := tx.PrepareContext(ctx, `SELECT id FROM strings WHERE text = ?`)
	if err != nil {
		return nil, err
	}
	put, err := tx.PrepareContext(ctx, `INSERT INTO strings(text) VALUES(?)`)
	if err != nil {
		get.Close()
		return nil, err
	}
	in := &interner{get: get, put: put, ids: map[string]int64{}, cache: cache,
		added: &batchInsert{tx: tx, head: `INSERT INTO strings(id, text)`, cols: 2}}
	if cache != nil {
		cache.mu.Lock()
		top, err := cache.sync(ctx, tx)
		if err != nil {
			in.close()
			return nil, err
		}
		in.complete = cache.whole
		in.next = top + 1
	}
	return in, nil
}

// sync brings the cache in line with the table at the start of a transaction
// (which holds the write lock) and returns the table's highest id. The cache
// becomes whole when the table is empty; a table that shrank, or whose
// highest cached id names another text (the file was rebuilt under us), makes
// it forget everything.
func (c *nameCache) sync(ctx context.Context, tx *sql.Tx) (int64, error) {
	var top int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM strings`).Scan(&top); err != nil {
		return 0, err
	}
	if !c.whole {
		if top == 0 {
			c.whole, c.ids, c.top = true, map[string]int64{}, 0
		}
		return top, nil
	}
	if top < c.top {
		c.forget()
		return top, nil
	}
	if c.top > 0 {
		var text string
		err := tx.QueryRowContext(ctx, `SELECT text FROM strings WHERE id = ?`, c.top).Scan(&text)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && c.ids[text] != c.top) {
			c.forget()
			return top, nil
		}
		if err != nil {
			return 0, err
		}
	}
	if top > c.top {
		rows, err := tx.QueryContext(ctx, `SELECT id, text FROM strings WHERE id > ?`, c.top)
		if err != nil {
			return 0, err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var text string
			if err := rows.Scan(&id, &text); err != nil {
				return 0, err
			}
			c.ids[text] = id
		}
		if err := rows.Err(); err != nil {
			return 0, err
		}
		c.top = top
	}
	return top, nil
}

func (c *nameCache) forget() { c.whole, c.ids, c.top = false, nil, 0 }

// id returns text's id, adding text to the table when it is not there.
func (in *interner) id(ctx context.Context, text string) (int64, error) {
	if id, ok := in.ids[text]; ok {
		return id, nil
	}
	if in.complete {
		if id, ok := in.cache.ids[text]; ok {
			return id, nil
		}
		id := in.next
		if err := in.added.add(ctx, id, text); err != nil {
			return 0, err
		}
		in.next++
		in.ids[text] = id
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

// lookup returns text's id without adding it: ok is false for a string the
// table does not hold.
func (in *interner) lookup(ctx context.Context, text string) (id int64, ok bool, err error) {
	if id, ok := in.ids[text]; ok {
		return id, true, nil
	}
	if in.complete {
		id, ok := in.cache.ids[text]
		return id, ok, nil
	}
	err = in.get.QueryRowContext(ctx, text).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	in.ids[text] = id
	return id, true, nil
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

// flush writes the new strings still waiting (complete mode); call it before
// the transaction commits.
func (in *interner) flush(ctx context.Context) error { return in.added.flush(ctx) }

// committed hands the transaction's new strings to the store's cache: call it
// once the transaction has committed.
func (in *interner) committed() {
	in.done = true
	c := in.cache
	if c == nil || !in.complete {
		return
	}
	if len(c.ids)+len(in.ids) > maxCachedNames {
		c.forget()
		return
	}
	for text, id := range in.ids {
		c.ids[text] = id
	}
	c.top = in.next - 1
}

func (in *interner) close() {
	in.get.Close()
	in.put.Close()
	in.added.close()
	if in.cache != nil {
		if !in.done && in.complete && in.next-1 > in.cache.top {
			// Rolled back after numbering new strings: the table is as the cache
			// knew it, but an error may have come from a wrong cache.
			in.cache.forget()
		}
		in.cache.mu.Unlock()
	}
}

// idOf is the SQL of a path's or a name's id, NULL when the string was never
// stored: `DELETE ... WHERE file = ` + idOf deletes nothing then.
const idOf = `(SELECT id FROM strings WHERE text = ?)`
