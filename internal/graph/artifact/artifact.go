// Package artifact packs a repository's code graph index into one compressed
// file that a team commits and shares (the peer's graph.zst), and unpacks it
// into a local index, so that a fresh clone answers at once and indexes only
// what changed since the artifact was made.
//
// The file is a zstd stream holding a tar of two entries: meta.json (Meta: the
// versions that must match, the commit, the file hashes) then graph.db (a
// compacted copy of the SQLite index, without the absolute path it was built in).
package artifact

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// RelPath is where the artifact lives in a repository: next to the ignored
// index folder (.albert-code/graph/), so it can be committed.
const RelPath = ".albert-code/graph.zst"

// Format is the version of the file's layout (the tar entries and Meta).
const Format = 1

const (
	// metaExtractorVersion is the index's meta key for index.ExtractorVersion
	// (TestExportImportRoundTrip fails if the two drift apart).
	metaExtractorVersion = "extractor_version"
	metaEntry            = "meta.json"
	dbEntry              = "graph.db"
	// maxMetaBytes bounds meta.json. Judgement: 100,000 files (the walk's cap)
	// at ~150 bytes of stamp each is 15 MB.
	maxMetaBytes = 64 << 20
	// MaxIndexBytes bounds the index an artifact may unpack to, so a hostile or
	// damaged file cannot fill the disk. Judgement: 8 GiB, a hundred times the
	// largest index measured (67 MiB, golang.org/x/tools).
	MaxIndexBytes = 8 << 30
)

// Errors a caller checks with errors.Is; the messages name the file and what to do.
var (
	// ErrIncompatible: the artifact was written by another format, index schema
	// or extractor version; its facts cannot be used as they are.
	ErrIncompatible = errors.New("graph artifact is incompatible")
	// ErrCorrupt: the file is not an artifact, is truncated, or its index does not
	// match its recorded hash.
	ErrCorrupt = errors.New("graph artifact is corrupt")
)

// Meta describes an artifact. Its versions decide whether it can be imported;
// its commit and file hashes say what it was built from (the content hashes
// are what the next index run compares the tree with; the file system's own
// stamps, inodes and times, mean nothing on another machine and are not kept).
type Meta struct {
	Format           int         `json:"format"`
	SchemaVersion    int         `json:"schema_version"`
	ExtractorVersion string      `json:"extractor_version"`
	ToolVersion      string      `json:"tool_version"`
	Commit           string      `json:"commit,omitempty"`
	IndexedAt        string      `json:"indexed_at,omitempty"`
	CreatedAt        string      `json:"created_at"`
	DBBytes          int64       `json:"db_bytes"`
	DBSHA256         string      `json:"db_sha256"`
	Files            []FileStamp `json:"files"`
}

// FileStamp is one indexed file as the artifact saw it.
type FileStamp struct {
	Path string `json:"path"`
	Hash string `json:"sha256"`
	Size int64  `json:"size"`
}

// Export packs the index at dbPath into out (written atomically) and returns
// what it recorded. toolVersion is albert-code's version.
func Export(ctx context.Context, dbPath, out, toolVersion string) (*Meta, error) {
	if _, err := os.Stat(dbPath); err != nil {
		return nil, fmt.Errorf("export the index %s: %w", dbPath, err)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, fmt.Errorf("export to %s: %w", out, err)
	}
	snap, err := snapshot(ctx, dbPath, filepath.Dir(out))
	if err != nil {
		return nil, fmt.Errorf("export the index %s: %w", dbPath, err)
	}
	defer os.Remove(snap)
	m, err := describe(ctx, snap)
	if err != nil {
		return nil, fmt.Errorf("export the index %s: %w", dbPath, err)
	}
	m.ToolVersion, m.CreatedAt = toolVersion, time.Now().UTC().Format(time.RFC3339)
	if err := pack(snap, out, m); err != nil {
		return nil, fmt.Errorf("export to %s: %w", out, err)
	}
	return m, nil
}

// sqliteURI opens path with the given mode through a file: URI (as the store
// does), so that a path with spaces or '?' survives.
func sqliteURI(path, mode string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return u.String() + "?mode=" + mode + "&_busy_timeout=5000"
}

// snapshot writes a compacted, consistent copy of the index (VACUUM INTO reads
// one transaction, so an indexer writing meanwhile cannot tear it) into dir,
// and drops what only made sense on this machine: the absolute root.
func snapshot(ctx context.Context, dbPath, dir string) (string, error) {
	tmp, err := os.CreateTemp(dir, ".graph-export-*.db")
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	tmp.Close()
	os.Remove(name) // VACUUM INTO wants a file that does not exist
	src, err := sql.Open("sqlite", sqliteURI(dbPath, "ro"))
	if err != nil {
		return "", err
	}
	defer src.Close()
	if _, err := src.ExecContext(ctx, "VACUUM INTO ?", name); err != nil {
		os.Remove(name)
		return "", fmt.Errorf("copy the index: %w", err)
	}
	dst, err := sql.Open("sqlite", sqliteURI(name, "rw"))
	if err != nil {
		os.Remove(name)
		return "", err
	}
	defer dst.Close()
	for _, stmt := range []string{`PRAGMA journal_mode=DELETE`, `DELETE FROM meta WHERE key = '` + store.MetaRoot + `'`} {
		if _, err := dst.ExecContext(ctx, stmt); err != nil {
			os.Remove(name)
			return "", fmt.Errorf("prepare the copy: %w", err)
		}
	}
	return name, nil
}

// describe reads the versions, commit and file stamps of a snapshot, and hashes it.
func describe(ctx context.Context, snap string) (*Meta, error) {
	db, err := sql.Open("sqlite", sqliteURI(snap, "ro"))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	meta := map[string]string{}
	rows, err := db.QueryContext(ctx, `SELECT key, value FROM meta`)
	if err != nil {
		return nil, fmt.Errorf("read the index's meta: %w", err)
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return nil, err
		}
		meta[k] = v
	}
	rows.Close()
	m := &Meta{Format: Format, ExtractorVersion: meta[metaExtractorVersion], Commit: meta[store.MetaIndexedCommit],
		IndexedAt: meta[store.MetaIndexedAt], Files: []FileStamp{}}
	if _, err := fmt.Sscan(meta[store.MetaSchemaVersion], &m.SchemaVersion); err != nil {
		return nil, fmt.Errorf("the index has no schema version (%q): rebuild it with `albert-code graph index --rebuild`", meta[store.MetaSchemaVersion])
	}
	rows, err = db.QueryContext(ctx, `SELECT path, hash, size FROM files ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("read the index's files: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var f FileStamp
		if err := rows.Scan(&f.Path, &f.Hash, &f.Size); err != nil {
			return nil, err
		}
		m.Files = append(m.Files, f)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	db.Close()
	if m.DBBytes, m.DBSHA256, err = hashFile(snap); err != nil {
		return nil, err
	}
	return m, nil
}

func hashFile(path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return n, hex.EncodeToString(h.Sum(nil)), err
}

// pack writes meta and the snapshot as the artifact at out, through a
// temporary file renamed into place.
func pack(snap, out string, m *Meta) error {
	metaJSON, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	// Level: zstd's "better" (about level 7), a judgement between size (the file
	// lives in git history) and time (export runs on every index refresh a team
	// chooses to share).
	zw, err := zstd.NewWriter(tmp, zstd.WithEncoderLevel(zstd.SpeedBetterCompression))
	if err != nil {
		tmp.Close()
		return err
	}
	tw := tar.NewWriter(zw)
	mtime := time.Unix(0, 0) // entries carry no local time; created_at says when
	if err := tw.WriteHeader(&tar.Header{Name: metaEntry, Mode: 0o644, Size: int64(len(metaJSON)), ModTime: mtime, Format: tar.FormatPAX}); err != nil {
		return errors.Join(err, tmp.Close())
	}
	if _, err := tw.Write(metaJSON); err != nil {
		return errors.Join(err, tmp.Close())
	}
	db, err := os.Open(snap)
	if err != nil {
		return errors.Join(err, tmp.Close())
	}
	defer db.Close()
	if err := tw.WriteHeader(&tar.Header{Name: dbEntry, Mode: 0o644, Size: m.DBBytes, ModTime: mtime, Format: tar.FormatPAX}); err != nil {
		return errors.Join(err, tmp.Close())
	}
	if _, err := io.Copy(tw, db); err != nil {
		return errors.Join(err, tmp.Close())
	}
	// CreateTemp makes the file private; the artifact is meant to be committed.
	if err := errors.Join(tw.Close(), zw.Close(), tmp.Chmod(0o644), tmp.Sync(), tmp.Close()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}
