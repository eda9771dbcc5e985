package index

import (
	"bytes"
	"encoding/gob"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// stampsFile is kept next to the index database: the file metadata seen when
// each file was last hashed, so an unchanged file is not read again.
const stampsFile = "stamps.gob"

// stampPath is where the stamps of st's tree are kept.
func stampPath(st *store.Store) string { return filepath.Join(filepath.Dir(st.Path()), stampsFile) }

// racyWindow is how long after hashing a file a stamp is not trusted: a write
// within the file system's timestamp granularity of the hash could leave the
// metadata unchanged (git's "racy clean" problem). Two seconds covers the
// coarsest common granularity (FAT); on finer file systems it only means a just
// edited file is hashed one more time.
const racyWindow = 2 * time.Second

// stamp is what identifies a file's content without reading it: size, modification
// and change times (any write moves ctime, which no tool can set back), inode.
type stamp struct {
	Size, MTime, CTime int64
	Ino                uint64
	Hash               string
	HashedAt           int64 // Unix nanoseconds, taken before reading
}

// stampOf reads the metadata part of a stamp from a walk entry's info.
func stampOf(info fs.FileInfo) stamp {
	s := stamp{Size: info.Size(), MTime: info.ModTime().UnixNano()}
	s.CTime, s.Ino = sysTimes(info)
	return s
}

// trusted reports whether old, recorded when the file was hashed, still vouches
// for the file now described by cur.
func (old stamp) trusted(cur stamp) bool {
	return old.Hash != "" && old.Size == cur.Size && old.MTime == cur.MTime && old.CTime == cur.CTime &&
		old.Ino == cur.Ino && cur.CTime != 0 &&
		old.MTime < old.HashedAt-int64(racyWindow) && old.CTime < old.HashedAt-int64(racyWindow)
}

// loadStamps reads the stamps saved at path; a missing or unreadable file is
// no stamps (everything is hashed).
func loadStamps(path string) map[string]stamp {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var m map[string]stamp
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&m) != nil {
		return nil
	}
	return m
}

// saveStamps writes the stamps atomically.
func saveStamps(path string, m map[string]stamp) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(m); err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}

// writeFileAtomic writes b to a temporary file in path's folder and renames it
// over path, so a reader sees the old content or the new, never a part.
func writeFileAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
