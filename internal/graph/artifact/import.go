package artifact

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/klauspost/compress/zstd"

	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// machineFiles are kept next to an index and describe this machine's copy of
// it (file system stamps, the Go type checker's snapshot and export data): an
// imported index makes them wrong, so they go with the index they described.
var machineFiles = []string{"stamps.gob", "go_snapshot.gob", "go-export"}

// Import replaces the index at dbPath with the artifact at path, for the
// repository at root, and returns the artifact's metadata. Nothing is replaced
// unless the whole artifact is read and checked: an incompatible one is
// ErrIncompatible, a damaged one ErrCorrupt, both naming the file.
func Import(ctx context.Context, path, dbPath, root string) (*Meta, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("import the graph artifact: %w", err)
	}
	defer f.Close()
	zr, err := zstd.NewReader(f, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxIndexBytes))
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	m, err := readMeta(tr, path)
	if err != nil {
		return nil, err
	}
	if err := compatible(m, path); err != nil {
		return nil, err
	}
	tmp, err := unpackDB(ctx, tr, m, path, filepath.Dir(dbPath))
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp) // after the rename, a no-op
	// The store checks what the hash cannot: that the bytes are a graph index of
	// this schema.
	st, err := store.OpenReadOnly(tmp)
	if err != nil {
		return nil, fmt.Errorf("%w: %s holds no usable index (%v); delete it or export it again", ErrCorrupt, path, err)
	}
	st.Close()
	if err := store.Remove(dbPath); err != nil {
		return nil, err
	}
	for _, name := range machineFiles {
		if err := os.RemoveAll(filepath.Join(filepath.Dir(dbPath), name)); err != nil {
			return nil, fmt.Errorf("import %s: %w", path, err)
		}
	}
	if err := os.Rename(tmp, dbPath); err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	st, err = store.Open(dbPath)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	defer st.Close()
	if err := st.SetMeta(ctx, store.MetaRoot, root); err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	return m, nil
}

// corrupt wraps a read failure of the artifact at path.
func corrupt(path string, err error) error {
	return fmt.Errorf("%w: %s cannot be read (%v); delete it or export it again with `albert-code graph export`", ErrCorrupt, path, err)
}

func readMeta(tr *tar.Reader, path string) (*Meta, error) {
	h, err := tr.Next()
	if err != nil {
		return nil, corrupt(path, err)
	}
	if h.Name != metaEntry || h.Size > maxMetaBytes {
		return nil, corrupt(path, fmt.Errorf("first entry %q of %d bytes, want %s", h.Name, h.Size, metaEntry))
	}
	var m Meta
	if err := json.NewDecoder(io.LimitReader(tr, maxMetaBytes)).Decode(&m); err != nil {
		return nil, corrupt(path, fmt.Errorf("%s: %w", metaEntry, err))
	}
	return &m, nil
}

// compatible says whether this albert-code can use the artifact's facts as they
// are: same layout, same index schema, same extractors (another extractor
// version would have every file extracted again anyway).
func compatible(m *Meta, path string) error {
	var why string
	switch {
	case m.Format != Format:
		why = fmt.Sprintf("artifact format %d, this albert-code reads %d", m.Format, Format)
	case m.SchemaVersion != store.SchemaVersion:
		why = fmt.Sprintf("index schema %d, this albert-code reads %d", m.SchemaVersion, store.SchemaVersion)
	case m.ExtractorVersion != index.ExtractorVersion:
		why = fmt.Sprintf("extractor version %q, this albert-code writes %q", m.ExtractorVersion, index.ExtractorVersion)
	default:
		return nil
	}
	return fmt.Errorf("%w: %s was written by albert-code %s (%s); export it again with this version",
		ErrIncompatible, path, m.ToolVersion, why)
}

// unpackDB writes the index entry to a temporary file in dir, checking its size
// and hash against meta, and returns the file's name.
func unpackDB(ctx context.Context, tr *tar.Reader, m *Meta, path, dir string) (string, error) {
	h, err := tr.Next()
	if err != nil {
		return "", corrupt(path, err)
	}
	if h.Name != dbEntry || h.Size != m.DBBytes || h.Size > MaxIndexBytes {
		return "", corrupt(path, fmt.Errorf("entry %q of %d bytes, want %s of %d (at most %d)", h.Name, h.Size, dbEntry, m.DBBytes, int64(MaxIndexBytes)))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".graph-import-*.db")
	if err != nil {
		return "", err
	}
	sum := sha256.New()
	_, err = io.Copy(io.MultiWriter(tmp, sum), ctxReader{ctx, io.LimitReader(tr, h.Size)})
	if err = errors.Join(err, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", corrupt(path, err)
	}
	if got := hex.EncodeToString(sum.Sum(nil)); got != m.DBSHA256 {
		os.Remove(tmp.Name())
		return "", corrupt(path, fmt.Errorf("the index's SHA-256 is %s, the artifact recorded %s", got, m.DBSHA256))
	}
	return tmp.Name(), nil
}

// ctxReader stops a long copy when its context is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// Bootstrap imports the repository's committed artifact (RelPath under root)
// when there is no index at dbPath yet. It returns the artifact's metadata when
// it imported one, nil when there was nothing to do (an index exists, or no
// artifact). An artifact that cannot be used is an error naming it; the index
// at dbPath is then left absent, so the caller indexes from scratch.
func Bootstrap(ctx context.Context, root, dbPath string) (*Meta, error) {
	if _, err := os.Stat(dbPath); err == nil {
		return nil, nil
	}
	path := filepath.Join(root, filepath.FromSlash(RelPath))
	if _, err := os.Stat(path); err != nil {
		return nil, nil
	}
	return Import(ctx, path, dbPath, root)
}
