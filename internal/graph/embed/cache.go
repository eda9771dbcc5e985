package embed

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the "sqlite" driver
)

// Cache keeps vectors on disk, keyed by a hash of the model and the text: an
// unchanged symbol is never embedded twice, a changed one gets a new key. It is a
// file of its own next to the graph (embeddings.db), so rebuilding the graph
// keeps it.
type Cache struct {
	db *sql.DB
}

// OpenCache opens or creates the cache file at path.
func OpenCache(path string) (*Cache, error) {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	db, err := sql.Open("sqlite", u.String()+"?mode=rwc&_busy_timeout=5000&_pragma=journal_mode(WAL)")
	if err != nil {
		return nil, fmt.Errorf("embeddings cache %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vec BLOB NOT NULL) WITHOUT ROWID`); err != nil {
		db.Close()
		return nil, fmt.Errorf("embeddings cache %s: %w (delete the file to start over)", path, err)
	}
	return &Cache{db: db}, nil
}

// Close closes the file.
func (c *Cache) Close() error { return c.db.Close() }

// Key is the cache key of text embedded by model.
func Key(model, text string) string {
	sum := sha256.Sum256([]byte(model + "\x00" + text))
	return hex.EncodeToString(sum[:16])
}

// Get returns the cached vectors among keys.
func (c *Cache) Get(ctx context.Context, keys []string) (map[string][]float32, error) {
	out := make(map[string][]float32, len(keys))
	const chunk = 500 // below SQLite's bound on parameters
	for start := 0; start < len(keys); start += chunk {
		part := keys[start:min(start+chunk, len(keys))]
		args := make([]any, len(part))
		for i, k := range part {
			args[i] = k
		}
		rows, err := c.db.QueryContext(ctx, `SELECT key, vec FROM vectors WHERE key IN (?`+strings.Repeat(", ?", len(part)-1)+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("embeddings cache: %w", err)
		}
		for rows.Next() {
			var k string
			var blob []byte
			if err := rows.Scan(&k, &blob); err != nil {
				rows.Close()
				return nil, fmt.Errorf("embeddings cache: %w", err)
			}
			out[k] = decode(blob)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("embeddings cache: %w", err)
		}
	}
	return out, nil
}

// Put stores vectors by key, in one transaction.
func (c *Cache) Put(ctx context.Context, vecs map[string][]float32) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("embeddings cache: %w", err)
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO vectors(key, vec) VALUES(?, ?)`)
	if err != nil {
		return fmt.Errorf("embeddings cache: %w", err)
	}
	defer st.Close()
	for k, v := range vecs {
		if _, err := st.ExecContext(ctx, k, encode(v)); err != nil {
			return fmt.Errorf("embeddings cache: %w", err)
		}
	}
	return tx.Commit()
}

func encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decode(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
