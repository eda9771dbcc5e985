package session

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// latestDir holds one small file per working directory naming the session of that
// directory whose meta was written last. Latest reads it instead of every session's
// meta: the serve layer continues a workspace's session on every run, and a store of
// thousands of sessions made each lookup read thousands of files. The name starts
// with a dot, so the store never lists it as a session.
const latestDir = ".latest"

// completeMarker, inside latestDir, says every session folder has its pointer, so a
// directory with no pointer has no session. Its modification time is kept at or
// after the store folder's: a folder created or removed by anything that did not
// touch the marker (an older albert-code, a crash between the two) makes the store
// newer than the marker, and the next lookup reads the store again.
const completeMarker = "complete"

// latestFile is the pointer file of cwd (already cleaned).
func latestFile(storeDir, cwd string) string {
	sum := sha256.Sum256([]byte(cwd))
	return filepath.Join(storeDir, latestDir, hex.EncodeToString(sum[:16]))
}

// markLatest records m as the latest session of its directory, after its meta was
// written. Sub-agent sessions and sessions with no directory are never "latest".
// Failing to write the pointer loses nothing: Latest then scans the store.
func markLatest(sessionDir string, m Meta) {
	if m.ParentID != "" || m.Cwd == "" {
		return
	}
	writePointer(filepath.Dir(sessionDir), m.Cwd, m.ID)
}

// writePointer makes the pointer of cwd name id. A pointer that already does is left
// alone: a run writes its meta several times, and replacing a file by rename is what
// costs on ext4 (the data is flushed first), all in one folder for every run.
func writePointer(storeDir, cwd, id string) {
	path := latestFile(storeDir, cwd)
	data := []byte(id + "\n" + cwd + "\n")
	if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
		return
	}
	if err := writeFileAtomic(path, data, deferred); err != nil {
		if os.MkdirAll(filepath.Dir(path), dirMode) == nil {
			_ = writeFileAtomic(path, data, deferred)
		}
	}
}

// touchComplete moves the marker's time to now after this process changed the store
// folder, if the marker exists.
func touchComplete(storeDir string) {
	now := time.Now()
	_ = os.Chtimes(filepath.Join(storeDir, latestDir, completeMarker), now, now)
}

// pointedLatest answers Latest from the pointers. found is whether the pointer of cwd
// names a session that still holds (exists, top-level, started in cwd); none is
// whether the pointers prove cwd has no session at all.
func (s *Store) pointedLatest(cwd string) (id string, found, none bool) {
	data, err := os.ReadFile(latestFile(s.dir, cwd))
	if os.IsNotExist(err) {
		return "", false, s.pointersComplete()
	}
	if err != nil {
		return "", false, false
	}
	id, rest, ok := strings.Cut(string(data), "\n")
	if !ok || strings.TrimSuffix(rest, "\n") != cwd || checkRef(id) != nil {
		return "", false, false
	}
	m, _, err := readMeta(filepath.Join(s.dir, id))
	if err != nil || m.ParentID != "" || cleanPath(m.Cwd) != cwd {
		return "", false, false
	}
	return id, true, false
}

func (s *Store) pointersComplete() bool {
	marker, err := os.Stat(filepath.Join(s.dir, latestDir, completeMarker))
	if err != nil {
		return false
	}
	store, err := os.Stat(s.dir)
	return err == nil && !store.ModTime().After(marker.ModTime())
}

// rebuildPointers writes the pointer of every directory from metas (the whole store,
// as List returns it: most recent first), then the marker, dated when the store
// folder was last changed before the scan: a folder created during the scan, which
// the scan may have missed, leaves the store newer than the marker.
func (s *Store) rebuildPointers(metas []Meta, storeBefore time.Time) {
	seen := map[string]bool{}
	for _, m := range metas {
		cwd := cleanPath(m.Cwd)
		if m.ParentID != "" || cwd == "" || seen[cwd] {
			continue
		}
		seen[cwd] = true
		writePointer(s.dir, cwd, m.ID)
	}
	if storeBefore.IsZero() {
		return
	}
	marker := filepath.Join(s.dir, latestDir, completeMarker)
	if writeFileAtomic(marker, nil, deferred) == nil {
		_ = os.Chtimes(marker, storeBefore, storeBefore)
	}
}
